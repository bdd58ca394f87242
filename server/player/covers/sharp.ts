import type Sharp from 'sharp';

/** sharp (libvips) is loaded when the first picture is made, not at start. */
export const loadSharp = async (): Promise<typeof Sharp> => (await import('sharp')).default;
