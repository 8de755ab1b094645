/**
 * The parts of the Kubernetes v1 API that Probe Lens decodes strictly, as Go structs: JSON field
 * names (case-sensitive) and Go types, so decode errors read like the API server's.
 */
export type Schema =
  | { readonly type: 'int32' | 'int64' | 'string' | 'bool' | 'intOrString' }
  /** Decoded for presence only; its contents are not Probe Lens's business. */
  | { readonly type: 'opaque' }
  | { readonly type: 'list'; readonly goType: string; readonly items: Schema }
  | {
      readonly type: 'object';
      /** Go struct name (`Probe`), as Go's decode errors name it. */
      readonly goName: string;
      readonly fields: Readonly<Record<string, Field>>;
      /** Unknown fields are not reported (only a few fields of the object are modelled). */
      readonly partial?: boolean;
    };

export interface Field {
  readonly schema: Schema;
  /** Minor version of Kubernetes 1.x whose API first has this field. */
  readonly since?: number;
}

const int32: Field = { schema: { type: 'int32' } };
const int64: Field = { schema: { type: 'int64' } };
const string: Field = { schema: { type: 'string' } };
const bool: Field = { schema: { type: 'bool' } };
const intOrString: Field = { schema: { type: 'intOrString' } };
const opaque: Field = { schema: { type: 'opaque' } };

export function goTypeName(schema: Schema): string {
  switch (schema.type) {
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'opaque':
      return 'interface {}';
    case 'list':
      return schema.goType;
    case 'object':
      return `v1.${schema.goName}`;
    default:
      return schema.type;
  }
}

const httpHeader: Schema = { type: 'object', goName: 'HTTPHeader', fields: { name: string, value: string } };

export const PROBE_SCHEMA: Schema = {
  type: 'object',
  goName: 'Probe',
  fields: {
    exec: { schema: { type: 'object', goName: 'ExecAction', fields: { command: { schema: { type: 'list', goType: '[]string', items: { type: 'string' } } } } } },
    httpGet: {
      schema: {
        type: 'object',
        goName: 'HTTPGetAction',
        fields: {
          path: string,
          port: intOrString,
          host: string,
          scheme: string,
          httpHeaders: { schema: { type: 'list', goType: '[]v1.HTTPHeader', items: httpHeader } },
          protocol: { schema: { type: 'string' }, since: 37 },
        },
      },
    },
    tcpSocket: { schema: { type: 'object', goName: 'TCPSocketAction', fields: { port: intOrString, host: string } } },
    grpc: {
      schema: { type: 'object', goName: 'GRPCAction', fields: { port: int32, service: string, mode: { schema: { type: 'string' }, since: 37 } } },
      since: 23,
    },
    initialDelaySeconds: int32,
    timeoutSeconds: int32,
    periodSeconds: int32,
    successThreshold: int32,
    failureThreshold: int32,
    terminationGracePeriodSeconds: { schema: { type: 'int64' }, since: 21 },
  },
};

const containerPort: Schema = {
  type: 'object',
  goName: 'ContainerPort',
  fields: { name: string, hostPort: int32, containerPort: int32, protocol: string, hostIP: string },
};

const envVar: Schema = { type: 'object', goName: 'EnvVar', fields: { name: string, value: string, valueFrom: opaque } };

const probe: Field = { schema: PROBE_SCHEMA };

const containerFields: Record<string, Field> = {
  name: string,
  image: string,
  command: { schema: { type: 'list', goType: '[]string', items: { type: 'string' } } },
  args: { schema: { type: 'list', goType: '[]string', items: { type: 'string' } } },
  workingDir: string,
  ports: { schema: { type: 'list', goType: '[]v1.ContainerPort', items: containerPort } },
  envFrom: opaque,
  env: { schema: { type: 'list', goType: '[]v1.EnvVar', items: envVar } },
  resources: opaque,
  resizePolicy: { ...opaque, since: 27 },
  restartPolicy: { schema: { type: 'string' }, since: 28 },
  restartPolicyRules: { ...opaque, since: 34 },
  volumeMounts: opaque,
  volumeDevices: opaque,
  livenessProbe: probe,
  readinessProbe: probe,
  startupProbe: probe,
  lifecycle: opaque,
  terminationMessagePath: string,
  terminationMessagePolicy: string,
  imagePullPolicy: string,
  securityContext: opaque,
  stdin: bool,
  stdinOnce: bool,
  tty: bool,
};

export const CONTAINER_SCHEMA: Schema = { type: 'object', goName: 'Container', fields: containerFields };

export const EPHEMERAL_CONTAINER_SCHEMA: Schema = {
  type: 'object',
  goName: 'EphemeralContainer',
  fields: { ...containerFields, targetContainerName: string },
};

/** Only the pod-spec fields probes depend on; the rest of the pod spec is not checked. */
export const POD_SPEC_SCHEMA: Schema = {
  type: 'object',
  goName: 'PodSpec',
  partial: true,
  fields: {
    containers: opaque,
    initContainers: opaque,
    ephemeralContainers: opaque,
    restartPolicy: string,
    terminationGracePeriodSeconds: int64,
    hostNetwork: bool,
  },
};
