import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RenderQueue } from '../../../src/core/render/renderQueue';

/** A render the test finishes by hand. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the render queue (E03)', () => {
  test('E03: one render in flight, one waiting; a newer request replaces the waiting one, and the replaced render never runs', async () => {
    const delivered: string[] = [];
    const queue = new RenderQueue<string>((v) => delivered.push(v));
    const first = gate<string>();
    const ran: string[] = [];
    queue.request(() => (ran.push('a'), first.promise));
    queue.request(async () => (ran.push('b'), 'b'));
    queue.request(async () => (ran.push('c'), 'c'));
    assert.deepEqual(ran, ['a'], 'only the first runs while it is in flight');
    assert.equal(queue.replaced, 1);
    first.open('a');
    await settle();
    await settle();
    assert.deepEqual(ran, ['a', 'c'], 'then the newest waiting one; b was replaced');
    assert.deepEqual(delivered, ['c'], 'a result a waiting render replaces is not delivered');
    assert.equal(queue.started, 2);
  });

  test('E03: a render that throws does not wedge the queue: the error is reported, the next request runs', async () => {
    const errors: unknown[] = [];
    const delivered: number[] = [];
    const queue = new RenderQueue<number>((v) => delivered.push(v), (e) => errors.push(e));
    queue.request(async () => {
      throw new Error('bug');
    });
    await settle();
    queue.request(async () => 2);
    await settle();
    assert.equal(errors.length, 1);
    assert.deepEqual(delivered, [2]);
  });

  test('E03: dispose aborts the render in flight and drops the waiting one; nothing is delivered after', async () => {
    const delivered: string[] = [];
    const queue = new RenderQueue<string>((v) => delivered.push(v));
    let aborted = false;
    const first = gate<string>();
    queue.request((signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return first.promise;
    });
    let waitingRan = false;
    queue.request(async () => ((waitingRan = true), 'x'));
    queue.dispose();
    assert.ok(aborted, 'the signal told the render to stop');
    first.open('late');
    await settle();
    assert.deepEqual(delivered, []);
    assert.equal(waitingRan, false);
    queue.request(async () => 'after');
    await settle();
    assert.deepEqual(delivered, [], 'a disposed queue takes no more requests');
  });
});
