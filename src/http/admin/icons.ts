/** The icons every page names, the login form too (served before login: assets.ts PUBLIC_PATHS). */
export const ICON_LINKS =
  '<link rel="icon" href="/admin/assets/icon.svg" type="image/svg+xml"><link rel="icon" href="/favicon.ico" sizes="16x16 32x32">' +
  '<link rel="apple-touch-icon" href="/admin/assets/icon-192.png">';
