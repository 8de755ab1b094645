import { randomBytes } from 'node:crypto';

/** A fresh nonce for a webview page's CSP: what its one script or its styles must carry (design §5). */
export function webviewNonce(): string {
  return randomBytes(16).toString('base64');
}
