import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canvasKeyCommand, type KeyPress, shortcutCommand, ZOOM_STEP } from '../../src/webview/timeline/model/keyCommands';

const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...over });

test('canvas keys: arrows pan (Shift: further) and scroll, Home fits; with Ctrl, Alt or Meta they are the editor\'s', () => {
  assert.deepEqual(canvasKeyCommand(press('ArrowLeft')), { kind: 'pan', widths: -0.1 });
  assert.deepEqual(canvasKeyCommand(press('ArrowRight', { shiftKey: true })), { kind: 'pan', widths: 0.5 });
  assert.deepEqual(canvasKeyCommand(press('ArrowDown')), { kind: 'scroll', px: 40 });
  assert.deepEqual(canvasKeyCommand(press('Home')), { kind: 'fitAll' });
  assert.equal(canvasKeyCommand(press('ArrowLeft', { ctrlKey: true })), undefined);
  assert.equal(canvasKeyCommand(press('x')), undefined);
});

test('shortcuts: + and - zoom by one step, 0 fits, F follows, Space plays, Escape closes the tooltip', () => {
  assert.deepEqual(shortcutCommand(press('+')), { kind: 'zoom', factor: ZOOM_STEP });
  assert.deepEqual(shortcutCommand(press('=')), { kind: 'zoom', factor: ZOOM_STEP });
  assert.deepEqual(shortcutCommand(press('_')), { kind: 'zoom', factor: 1 / ZOOM_STEP });
  assert.deepEqual(shortcutCommand(press('0')), { kind: 'fitAll' });
  assert.deepEqual(shortcutCommand(press('F')), { kind: 'toggleFollow' });
  assert.deepEqual(shortcutCommand(press(' ')), { kind: 'togglePlay' });
  assert.deepEqual(shortcutCommand(press('Escape')), { kind: 'dismiss' });
  assert.equal(shortcutCommand(press('+', { metaKey: true })), undefined, 'Cmd+ is VS Code\'s zoom');
});
