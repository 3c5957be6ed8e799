/** The URLs the admin UI owns; the API's bearer hook leaves them to the admin guard (cookie or bearer). */
export const isAdminPath = (path: string): boolean =>
  path === '/admin' ||
  path.startsWith('/admin/') ||
  path === '/graph' ||
  path === '/api/graph' ||
  path === '/favicon.ico';
