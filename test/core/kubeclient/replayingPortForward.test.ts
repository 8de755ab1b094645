import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../../src/core/base/clock';
import type { Disposable } from '../../../src/core/base/disposable';
import type { PortForwardEnd, PortForwardEvents, PortForwardStream } from '../../../src/core/kubeclient/portForwardStream';
import { replayingPortForward } from '../../../src/core/kubeclient/replayingPortForward';

// A port-forward cut before the pod answered — what a refusal looks like when the reset of our
// early request made the hop in between drop the kubelet's last frames — is opened again, and
// the request sent again once the new stream has stood open a while without a refusal. Each
// inner stream here is a stand-in the test drives; the real streams are in the integration test
// (test/core/targets/refusedThroughForward.test.ts).

interface Inner extends PortForwardStream {
  readonly written: Buffer[];
  open(): void;
  data(text: string): void;
  close(end: PortForwardEnd): void;
}

function inners(): { made: Inner[]; open: (events: PortForwardEvents) => PortForwardStream } {
  const made: Inner[] = [];
  return {
    made,
    open: (events) => {
      let state: PortForwardStream['state'] = 'connecting';
      const inner: Inner = {
        written: [],
        get state() {
          return state;
        },
        bufferedAmount: 0,
        write: (chunk) => void inner.written.push(chunk),
        end: () => undefined,
        listen: (): Disposable => ({ dispose: () => undefined }),
        dispose: () => undefined,
        open: () => ((state = 'open'), events.onOpen?.()),
        data: (text) => events.onData?.(Buffer.from(text)),
        close: (end) => ((state = 'closed'), events.onClose?.(end)),
      };
      made.push(inner);
      return inner;
    },
  };
}

const CUT: PortForwardEnd = { cut: true };
const REFUSED: PortForwardEnd = { cut: false, remoteError: 'error forwarding port 9090 to pod x, uid : … connect: connection refused' };
const text = (chunks: readonly Buffer[]) => Buffer.concat(chunks).toString();

test('a cut before any answer: opened again, the request held until the new stream has been open three of its round trips, then sent', () => {
  const clock = new VirtualClock();
  const { made, open } = inners();
  const ends: PortForwardEnd[] = [];
  const stream = replayingPortForward(open, { clock });
  stream.listen({ onClose: (end) => ends.push(end) });
  stream.write(Buffer.from('GET /ready'));
  made[0]?.open();
  made[0]?.close(CUT);
  assert.equal(made.length, 2, 'opened again');
  assert.deepEqual(ends, [], 'the cut is not the end');
  clock.advanceBy(10);
  made[1]?.open();
  assert.equal(text(made[1]?.written ?? []), '', 'held while a refusal may still come');
  clock.advanceBy(29);
  assert.equal(text(made[1]?.written ?? []), '');
  clock.advanceBy(1);
  assert.equal(text(made[1]?.written ?? []), 'GET /ready', 'sent after 3 × 10 ms');
  made[1]?.close(REFUSED);
  assert.deepEqual(ends, [REFUSED], 'the refusal, heard this time');
});

test('a refusal while the replay waits ends it with the refusal, and nothing is sent', () => {
  const clock = new VirtualClock();
  const { made, open } = inners();
  const ends: PortForwardEnd[] = [];
  const stream = replayingPortForward(open, { clock });
  stream.listen({ onClose: (end) => ends.push(end) });
  stream.write(Buffer.from('GET /'));
  made[0]?.close(CUT);
  made[1]?.open();
  made[1]?.close(REFUSED);
  assert.deepEqual(ends, [REFUSED]);
  assert.deepEqual(made[1]?.written, []);
  clock.advanceBy(1_000);
  assert.equal(made.length, 2, 'no timer left to open another');
});

test('cut every time: opened twice more, then the cut is the end; an answer, a refusal or our own end is never replayed', () => {
  const clock = new VirtualClock();
  const always = inners();
  const ends: PortForwardEnd[] = [];
  replayingPortForward(always.open, { clock }).listen({ onClose: (end) => ends.push(end) });
  for (let i = 0; i < 3; i++) always.made[i]?.close(CUT);
  assert.deepEqual([always.made.length, ends], [3, [CUT]]);

  const answered = inners();
  const afterAnswer: PortForwardEnd[] = [];
  const stream = replayingPortForward(answered.open, { clock });
  stream.listen({ onClose: (end) => afterAnswer.push(end) });
  answered.made[0]?.open();
  answered.made[0]?.data('HTTP/1.1 200 OK');
  answered.made[0]?.close(CUT);
  assert.deepEqual([answered.made.length, afterAnswer], [1, [CUT]], 'the pod answered: a cut then is a cut');

  const refused = inners();
  replayingPortForward(refused.open, { clock }).listen({ onClose: () => undefined });
  refused.made[0]?.close(REFUSED);
  assert.equal(refused.made.length, 1);

  const ours = inners();
  const ended = replayingPortForward(ours.open, { clock });
  ended.end();
  ours.made[0]?.close(CUT);
  assert.equal(ours.made.length, 1, 'ended by us');
});

test('a request larger than maxBytes is not kept, so not replayed; an app that speaks first releases what waits', () => {
  const clock = new VirtualClock();
  const big = inners();
  const stream = replayingPortForward(big.open, { clock, maxBytes: 4 });
  stream.listen({ onClose: () => undefined });
  stream.write(Buffer.from('12345'));
  big.made[0]?.close(CUT);
  assert.equal(big.made.length, 1);

  const banner = inners();
  const chatty = replayingPortForward(banner.open, { clock });
  const seen: string[] = [];
  chatty.listen({ onData: (chunk) => seen.push(chunk.toString()) });
  chatty.write(Buffer.from('PING'));
  banner.made[0]?.close(CUT);
  banner.made[1]?.open();
  banner.made[1]?.data('+OK ready');
  assert.deepEqual(seen, ['+OK ready']);
  assert.equal(text(banner.made[1]?.written ?? []), 'PING', 'released at once');
});
