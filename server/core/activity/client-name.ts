/**
 * A short name of the browser and system a request came from, for the
 * owner's activity log (`Firefox on Android`, `Safari on iPhone`). Only the
 * common ones are told apart; anything else is named by the first product
 * token of the User-Agent (`curl`), bounded, or `''` without one.
 */

const browsers: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(?:Headless)?Chrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const MAX = 40;

export const clientName = (userAgent: string | undefined): string => {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua.trim()) return '';
  const browser = browsers.find(([re]) => re.test(ua))?.[1];
  const system = systems.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  const product = /^([A-Za-z][A-Za-z0-9._-]*)/.exec(ua)?.[1];
  const name = product && product !== 'Mozilla' ? product : (system ?? '');
  return name.slice(0, MAX);
};
