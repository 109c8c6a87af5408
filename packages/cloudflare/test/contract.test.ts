import { describeHttpContract, remoteTarget, workerdDecides } from '@plantstore/http-suite';
import { beforeAll, describe } from 'vitest';
import { bundleWorker } from './support/bundle-worker';
import { startWorker } from './support/start-worker';

// The route, its jwtBearer (on a secret, and on a JWKS fetched through the Worker's own fetch from
// the suite's issuer on 127.0.0.1) and its DPoP checks run in a Worker on workerd; the suite's store
// and hooks stay here, reached through the bridge (@plantstore/http-suite/bridged). With
// nodejs_compat the core takes node:crypto where it finds it (keys, hashes, certificates, hooks'
// diagnostics): that run covers the cases those paths can change.
let script: string;
beforeAll(async () => {
  script = await bundleWorker('contract-worker.ts');
}, 60_000);

for (const nodejsCompat of [false, true]) {
  describe(`workerd ${nodejsCompat ? 'with' : 'without'} nodejs_compat`, () => {
    describeHttpContract(
      'fetch entry on workerd',
      remoteTarget((bindings) => startWorker({ script, nodejsCompat, bindings }), {
        passesOn: false,
        mountPath: '/api',
      }),
      {
        decides: workerdDecides({ nodejsCompat }),
        ...(nodejsCompat ? { only: ['auth', 'dpop', 'client-cert-header', 'hooks'] } : {}),
      },
    );
  });
}
