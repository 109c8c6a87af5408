import { describe, expect, it } from 'vitest';
import { DeliveryError } from './event-sink';
import { sinkGate } from './sink-gate';

const live = (): AbortSignal => new AbortController().signal;

describe('sinkGate', () => {
  it('resolves with the delivery, and sends nothing once the signal has fired', async () => {
    const gate = sinkGate('The test sink');
    let sent = 0;
    await gate.send(live(), () => Promise.resolve(void (sent += 1)));
    await expect(
      gate.send(AbortSignal.abort(new Error('stopped')), () => Promise.resolve(void (sent += 1))),
    ).rejects.toThrow('stopped');
    expect(sent).toBe(1);
  });

  it('rejects with the abort’s reason as soon as the signal fires, while the delivery goes on', async () => {
    const gate = sinkGate('The test sink');
    const controller = new AbortController();
    let finish: () => void = () => undefined;
    const delivery = new Promise<void>((resolve) => (finish = resolve));
    const sending = gate.send(controller.signal, () => delivery);
    controller.abort(new Error('time-out'));
    await expect(sending).rejects.toThrow('time-out');

    // close() waits for the delivery the abort left under way.
    let closed = false;
    const closing = gate.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(closed).toBe(true);
  });

  it('refuses sends after close() with a DeliveryError naming the sink; close() twice settles once', async () => {
    const gate = sinkGate('The test sink');
    const first = gate.close();
    expect(gate.close()).toBe(first);
    await first;
    expect(gate.closed).toBe(true);
    const refused = gate.send(live(), () => Promise.resolve());
    await expect(refused).rejects.toBeInstanceOf(DeliveryError);
    await expect(refused).rejects.toThrow('The test sink is closed.');
  });
});
