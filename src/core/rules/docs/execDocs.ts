import { pod } from './manifests';
import type { RuleDoc } from './types';

/** L19–L21: exec probes, which run a program directly, with no shell. */
export const EXEC_DOCS: Readonly<Record<string, RuleDoc>> = {
  L19: {
    name: 'Shell syntax without a shell',
    means: `An \`exec\` command written like a shell line. As an **error**: the whole line in one list item (\`["cat /tmp/healthy"]\`). As a **warning**: shell syntax — a pipe, \`&&\`, \`;\`, a redirect, \`$VAR\`, \`$(…)\`, a glob — in one of several arguments, where it may be meant literally. \`$(NAME)\` of a variable in the container's \`env\` is fine: Kubernetes expands that itself. A quick fix runs the command with \`sh -c\`.`,
    why: `The kubelet hands the list to the container runtime as it is: the first item is the program, each other item one argument, and no shell is involved. A whole line as one item makes the runtime look for a program literally named \`cat /tmp/healthy\`: every attempt fails, so a liveness probe restarts the container over and over, and a readiness probe keeps it out of its Services. Shell syntax in an argument is passed along as plain text: \`|\` or \`&&\` does not run a second command, \`$HOME\` is not expanded, \`*\` is not a glob.`,
    bad: {
      caption: 'The whole command line as one item.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["cat /tmp/healthy"]
      `),
    },
    good: {
      caption: 'One item per argument (or, for pipes and variables, `["sh", "-c", "…"]`).',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["cat", "/tmp/healthy"]
      `),
    },
  },

  L20: {
    name: 'sh -c with several arguments',
    means: `\`sh -c\` (or \`bash -c\`) followed by more than one argument, and the script does not use \`$0\`, \`$1\`…`,
    why: `A shell runs only the argument right after \`-c\` as its script; the ones after it become the script's \`$0\`, \`$1\`, …, and are not run. Here the probe runs \`pg_isready\` without \`-U postgres\`. A quick fix joins them into one script.`,
    bad: {
      caption: 'The options after the script are not part of it.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["sh", "-c", "pg_isready", "-U", "postgres"]
      `),
    },
    good: {
      caption: 'The whole command in the one script argument.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["sh", "-c", "pg_isready -U postgres"]
      `),
    },
  },

  L21: {
    name: 'curl or wget without a timeout',
    means: `An \`exec\` probe runs \`curl\` without \`--max-time\` (\`-m\`), or \`wget\` without \`-T\` (\`--timeout\`), and the probe's \`timeoutSeconds\` is 1 s, the default.`,
    why: `The kubelet gives every exec attempt \`timeoutSeconds\` to finish. A slow answer is cut off by that timeout, and the probe fails with only \`command "curl …" timed out\` — not curl's or wget's own message, which would say what was slow. Give the client a timeout of its own, shorter than \`timeoutSeconds\`, and raise \`timeoutSeconds\` if the app may need more than a second.`,
    bad: {
      caption: 'curl may wait as long as the server takes; the kubelet waits 1 s.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["curl", "-fsS", "http://localhost:8080/healthz"]
      `),
    },
    good: {
      caption: 'curl gives up after 2 s, inside a 3 s probe timeout.',
      yaml: pod(`
        livenessProbe:
          exec:
            command: ["curl", "-fsS", "--max-time", "2", "http://localhost:8080/healthz"]
          timeoutSeconds: 3
      `),
    },
  },
};
