// The screen, theme and language combinations a journey spec runs in: every value of each
// appears, and every screen with every theme, in four runs instead of all eight.
export const combos = [
  { screen: 'phone', theme: 'light', lang: 'gb' },
  { screen: 'phone', theme: 'dark', lang: 'de' },
  { screen: 'desktop', theme: 'light', lang: 'de' },
  { screen: 'desktop', theme: 'dark', lang: 'gb' },
] as const;
