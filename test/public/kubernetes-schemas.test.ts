// deploy/kubernetes against the Kubernetes API's own schemas, without a cluster: every object of every manifest
// is validated by kubernetes-models (the OpenAPI schemas of each kind, compiled to validators, from the npm
// registry; the test package's), as `kubectl apply` would have the API server check field types, enums and
// required fields. Pod Security "restricted" and the NetworkPolicy's effect: test/public/deployment-hardening.test.ts.
import { expect } from 'chai';
import { allKubernetesObjects } from '../support/deployment-files.js';

type KubeObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: Record<string, unknown> };
type Model = new (data: unknown) => { validate(): void };

/** The model class of an object's apiVersion and kind (`apps/v1` StatefulSet: kubernetes-models/apps/v1/StatefulSet). */
async function modelOf(object: KubeObject): Promise<Model> {
  const module = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, Model>;
  const model = module[object.kind];
  if (model === undefined) throw new Error(`kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  return model;
}

/** The validator's complaint about an object, or undefined when it is valid. */
async function problemsOf(object: KubeObject): Promise<string | undefined> {
  const Model = await modelOf(object);
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('deploy/kubernetes: every object is valid against the Kubernetes API schemas', () => {
  const objects = allKubernetesObjects() as unknown as KubeObject[];

  it('validates each kind the manifests hold', () => {
    expect([...new Set(objects.map((o) => `${o.apiVersion} ${o.kind}`))].sort()).to.deep.equal([
      'apps/v1 Deployment',
      'apps/v1 StatefulSet',
      'networking.k8s.io/v1 NetworkPolicy',
      'policy/v1 PodDisruptionBudget',
      'v1 ConfigMap',
      'v1 PersistentVolumeClaim',
      'v1 Service',
    ]);
  });

  it('finds what the API server would refuse: a port given by name where a number belongs, a wrong enum, a missing selector', async () => {
    type Broken = KubeObject & { spec: { selector?: unknown; template: { spec: { containers: Array<Record<string, unknown>> } } } };
    const broken = (change: (set: Broken) => void): Broken => {
      const set = structuredClone(objects.find((o) => o.kind === 'StatefulSet')!) as Broken;
      change(set);
      return set;
    };
    const portByName = broken((set) => (set.spec.template.spec.containers[0]!.ports = [{ name: 'redis', containerPort: 'redis' }]));
    const pullPolicy = broken((set) => (set.spec.template.spec.containers[0]!.imagePullPolicy = 'Sometimes'));
    const noSelector = broken((set) => delete set.spec.selector);
    expect(await problemsOf(portByName)).to.contain('containerPort must be integer');
    expect(await problemsOf(pullPolicy)).to.contain('imagePullPolicy must be equal to one of the allowed values');
    expect(await problemsOf(noSelector)).to.contain('must have required property selector');
  });

  for (const object of allKubernetesObjects() as unknown as KubeObject[]) {
    it(`${object.kind} ${object.metadata.name}`, async () => {
      expect(await problemsOf(object)).to.equal(undefined);
    });
  }
});
