// Preloaded into the electron package's install.js by electron-runtime.mjs: what the
// installer reports with console.error (its failure, as a stack) goes to fd 3, where the
// caller makes one line of it; its progress bar still goes to the terminal.
import { writeSync } from 'node:fs';
import { format } from 'node:util';

console.error = (...args) => {
  writeSync(3, `${format(...args)}\n`);
};
