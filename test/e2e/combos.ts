// The screens and languages a journey spec runs in: each screen once, each language once.
// Each run starts in one theme (the browser's colour scheme, not a stored choice) and
// meets the other at every checkpoint through `checkBothThemes` (page-checks.ts).
export const combos = [
  { screen: 'phone', theme: 'dark', lang: 'de' },
  { screen: 'desktop', theme: 'light', lang: 'gb' },
] as const;
