// dependency-cruiser's rules over apps/ and libs/ (npm run lint:deps): no import cycle anywhere,
// and the gateway's layers (docs/architecture.md, "The gateway's folders") each import only
// downward.
const GATEWAY = '^apps/gateway/src/';
/** The gateway's lower layer: HTTP plumbing and the building blocks every domain uses. */
const GATEWAY_LOWER = `${GATEWAY}(http|openapi|ops|auth|lists|idempotency|limits|store|settings|migrations)/`;
/** The gateway's domain folders: the routes of one resource or one way in, with their OpenAPI refinements and examples. */
const GATEWAY_DOMAINS = `${GATEWAY}(api-keys|benchmarks|datasets|ingest|media|organizations|projects|prompts|secrets|traces)/`;

/** A spec may test a layer through the whole (the module, a controller); the layer rules are for the code. */
const SPEC = '\\.spec\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle of imports: the files cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-import-no-app',
      severity: 'error',
      comment: 'A lib is shared by the apps; it imports none of them.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'gateway-lower-layer-imports-no-domain',
      severity: 'error',
      comment:
        "The gateway's lower layer (http/, openapi/, ops/, auth/ …) serves every domain and names none: a domain registers what it adds (body parsers, OpenAPI refinements) from above.",
      from: { path: GATEWAY_LOWER, pathNot: SPEC },
      to: { path: GATEWAY_DOMAINS },
    },
    {
      name: 'gateway-folders-import-not-the-top',
      severity: 'error',
      comment:
        "The gateway's top (gateway.module.ts, start-gateway.ts, openapi-document.ts, main.ts …) assembles the folders; no folder imports it. gateway.env.ts, the configuration, imports nothing and is read by all.",
      from: { path: `${GATEWAY}[^/]+/`, pathNot: SPEC },
      to: { path: `${GATEWAY}[^/]+$`, pathNot: `${GATEWAY}gateway\\.env\\.ts$` },
    },
  ],
  options: {
    includeOnly: '^(apps|libs)/',
    exclude: { path: '(^|/)(dist|node_modules)/' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still two files that cannot be understood apart.
    tsPreCompilationDeps: true,
    // `@cinetrace/<name>` read as the package's sources (tsconfig.deps.json), so a cycle between packages shows too.
    tsConfig: { fileName: 'tsconfig.deps.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'] },
  },
};
