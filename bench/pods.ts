/** Manifests of many small pods for the engine benchmarks. */
export function podsManifest(pods: number, probes: (i: number) => string): string {
  const documents: string[] = [];
  for (let i = 0; i < pods; i++) {
    documents.push(`apiVersion: v1
kind: Pod
metadata: {name: pod-${i}}
spec:
  containers:
    - name: app
      image: example/app:1
      ports: [{name: http, containerPort: 8080}, {name: grpc, containerPort: 9090}]
${probes(i)}`);
  }
  return documents.join('\n---\n');
}
