// Helpers of the deployment checks (the checks run as the *.spec.ts files beside them).
export * from './repo';
export * from './app-contract';
export * from './env-check';
export * from './kubernetes';
export * from './compose';
export * from './dockerfile';
export * from './codeowners';
export * from './yaml-files';
export * from './tools';
export * from './manifests';
export * from './checks';
export * from './kustomize-checks';
export * from './budget';
