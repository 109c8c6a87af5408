import { notFound } from '@example/not-found';

// The app's own 404 for every path no other route file serves.
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH };
export { notFound as DELETE };
