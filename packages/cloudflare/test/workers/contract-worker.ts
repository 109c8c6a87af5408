import { bridgedService, type BridgedService } from '@plantstore/http-suite/bridged';

// The contract suite's host on workerd: the core's fetch entry as the Worker's whole handler, with
// the suite's store and hooks reached through the bridge its test opened (its address and settings
// are the Worker's text bindings). Built on the first request, when the bindings are known.
let host: BridgedService | undefined;

export default {
  async fetch(request: Request, env: Readonly<Record<string, string>>): Promise<Response> {
    host ??= bridgedService(env, '/api');
    const response = await host.service.fetch(request);
    await host.settled(); // the suite reads hook calls as soon as it has the answer
    return response;
  },
};
