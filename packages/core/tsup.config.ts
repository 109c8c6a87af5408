import { packageBuild } from '../../tsup.shared';

export default packageBuild({
  index: 'src/index.ts',
  adapter: 'src/entries/adapter.ts',
  openapi: 'src/entries/openapi.ts',
  providers: 'src/entries/providers.ts',
  events: 'src/entries/events.ts',
  'store-kit': 'src/entries/store-kit.ts',
  testing: 'src/testing/index.ts',
  web: 'src/entries/web.ts',
});
