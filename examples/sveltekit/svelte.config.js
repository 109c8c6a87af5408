import adapter from '@sveltejs/adapter-node';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  // CSRF origin checking stays on (the default): it guards the app's own form actions. It answers a
  // form media type (text/plain, urlencoded, multipart) sent without this origin 403 before the
  // plants route, which would have answered 415 (docs/hosts/sveltekit.md).
  kit: { adapter: adapter() },
};

export default config;
