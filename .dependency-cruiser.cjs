/**
 * The import graph's rules (`npm run lint` runs them, `npm run graph` draws the graph for
 * docs/architecture.md). Each layer imports only the layers below it:
 *
 *   client   pages → components · hooks → stores → api → runtime → domain / platform / constants
 *   server   routes, plugins, jobs → services → domain / db / adapters / contract, with the job queue
 *            (job-queue.ts) and the clock (clock.ts) below services; the operator console's module
 *            (server/src/console) has the same layers inside it and sits above the user API: it uses
 *            the user API's services, and nothing of the user API imports it (app.ts registers it)
 *
 * and nothing imports in a circle, type-only imports included. ESLint's
 * no-restricted-imports (.eslintrc.js) says the same per folder as you type; this file also sees
 * circles and relative paths, and fails CI on either.
 */
const ALL_CODE = '^(src|server/src|admin|control)/'

/** A rule forbidding `from` to import `to`, with the message a developer reads when it fails. */
const forbid = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to })

module.exports = {
  forbidden: [
    forbid(
      'no-circular',
      'An import circle: move what both sides need into a module below them (a type-only import counts too).',
      { path: ALL_CODE },
      { circular: true },
    ),

    // ---- client ----------------------------------------------------------------------------
    forbid(
      'client: pages are entry points',
      'Only a page imports a page module. Shared UI goes to src/components, shared rules to src/domain, app runtime to src/runtime.',
      { path: '^src/(?!pages/)' },
      { path: '^src/pages/' },
    ),
    forbid(
      'client: a page folder keeps out of another',
      "A page folder imports no other page folder's modules (each is its own WeChat sub-package): move what both need to src/components, src/hooks, src/domain or src/runtime.",
      { path: '^src/pages/([^/]+)/' },
      { path: '^src/pages/', pathNot: '^src/pages/$1/' },
    ),
    forbid(
      'client: stores are below components',
      'Stores hold state and call the API modules; they import no component or page (pass UI callbacks in instead).',
      { path: '^src/stores/' },
      { path: '^src/(pages|components|hooks)/' },
    ),
    forbid(
      'client: the API modules are below stores',
      'The API modules (src/api) import no store, hook, component or page: the app wires stores to them (src/stores/create-app-stores.ts).',
      { path: '^src/api/' },
      { path: '^src/(pages|components|hooks|stores)/' },
    ),
    forbid(
      'client: the app runtime is below the API modules',
      'The app runtime (src/runtime: request, navigation, feedback, route events) imports no API module, store, hook, component or page: pass what it needs in.',
      { path: '^src/runtime/' },
      { path: '^src/(pages|components|hooks|stores|api)/' },
    ),
    forbid(
      'client: domain, platform and constants are the bottom',
      'src/domain, src/platform and src/constants import nothing of the app above them.',
      { path: '^src/(domain|platform|constants)/' },
      { path: '^src/(pages|components|hooks|stores|api|runtime)/' },
    ),
    forbid(
      'client: the console stays out',
      'The mini-program and H5 import nothing of the operator console: neither its contract nor its shared rules (src/domain/console, which only the server and admin/ use).',
      { path: '^src/(?!domain/console/)' },
      { path: '^(server/src/console/|src/domain/console/)' },
    ),
    forbid(
      'client: the domain is pure',
      'src/domain is plain TypeScript the server imports too (#domain/*): no platform, UI framework or Taro.',
      { path: '^src/domain/' },
      {
        path: [
          '^src/platform/',
          '^node_modules/(react|react-dom|mobx|mobx-react|mobx-react-lite|@tarojs|@nutui)/',
        ],
      },
    ),

    // ---- server ----------------------------------------------------------------------------
    forbid(
      'server: services are below routes, plugins and jobs',
      'A service imports no route, plugin or job handler: those call services. The job queue port (enqueue) lives below services.',
      { path: '^server/src/(console/)?services/' },
      { path: '^server/src/(console/)?(routes|plugins|jobs)/' },
    ),
    forbid(
      'server: domain, db, adapters and contract are below services',
      'server/src/domain, db, adapters and contract import no service, route, plugin or job: pass what they need in (the clock is server/src/clock.ts).',
      { path: '^server/src/(domain|db|adapters|contract|console/contract)/' },
      {
        path: '^server/src/(console/)?(services|routes|plugins|jobs)/',
      },
    ),
    forbid(
      'server: the job queue and the clock are ports below services',
      'server/src/job-queue.ts (services add jobs through it) and server/src/clock.ts import no job handler, service, route, plugin or adapter.',
      { path: '^server/src/(job-queue|clock)\\.ts$' },
      { path: '^server/src/(services|routes|plugins|adapters|jobs)/' },
    ),
    forbid(
      'server: a service folder is entered by its index',
      "Routes, jobs, plugins, the console and the composition root use a service folder (services/orders, services/devices…) through its index.ts, which exports what they use. Service folders import each other's files directly: their domains call each other both ways (orders and devices, orders and wallet…), and a barrel between siblings would turn that into import circles.",
      { path: '^server/src/(?!services/[^/]+/)' },
      { path: '^server/src/services/[^/]+/(?!index\\.ts$)' },
    ),
    forbid(
      'server: the user API knows nothing of the console',
      'The user API (services, routes, contract, jobs, plugins, db, adapters, domain) imports nothing of server/src/console: the console builds on the user API and app.ts registers it (console/index.ts).',
      { path: '^server/src/(?!console/|app\\.ts$|main\\.ts$)' },
      { path: '^server/src/console/' },
    ),
    forbid(
      'server: the console is entered by its index',
      'app.ts reaches the console only through server/src/console/index.ts, its one entry.',
      { path: '^server/src/(app|main)\\.ts$' },
      { path: '^server/src/console/(?!index\\.ts$)' },
    ),
    forbid(
      'server: config is the bottom',
      'server/src/config.ts imports nothing of the server (every layer reads it): a default lives in its SERVER_DEFAULTS, not in the module that uses it.',
      { path: '^server/src/config\\.ts$' },
      { path: '^server/src/' },
    ),
    forbid(
      'server: the server runs from server/src',
      'The server imports the shared rules as #domain/* and #constants/*, names shared with the build from shared/, and nothing else outside server/src (no scripts/, no client code).',
      { path: '^server/src/' },
      {
        path: '^(?!server/src/|src/domain/|src/constants/|shared/|types/|node_modules/)',
        dependencyTypesNot: ['core'],
      },
    ),

    forbid(
      'server: a real supplier imports nothing of the sandbox',
      'The ACEP adapter and its routes import nothing from adapters/supplier/sandbox/: what suppliers share (the control page) lives beside them in adapters/supplier/ (control-page.ts) or routes/supplier-control-routes.ts.',
      { path: '^server/src/(adapters/supplier/acep/|routes/acep-supplier-routes\\.ts$)' },
      { path: '^server/src/adapters/supplier/sandbox/' },
    ),

    // ---- control page (control/) ---------------------------------------------------------------
    forbid(
      'control page: only the shared rules',
      'The control page (control/) imports src/domain (#domain/*) and nothing else of the client or the server: the server hands it its data as JSON (adapters/supplier/control-page.ts).',
      { path: '^control/' },
      { path: '^(src|server|admin)/', pathNot: '^src/domain/' },
    ),

    // ---- operator console (admin/) -------------------------------------------------------------
    forbid(
      'console: only the shared rules and the contract',
      'The console (admin/) imports src/domain and src/constants (#domain/*, #constants/*) and its own API contract (#console-contract), nothing else of the client or the server.',
      { path: '^admin/' },
      { path: '^(src|server)/', pathNot: '^(src/(domain|constants)|server/src/console/contract)/' },
    ),
    forbid(
      'console: the contract as types only',
      "The console imports the server's contract with `import type`: nothing of the server is bundled.",
      { path: '^admin/' },
      { path: '^server/', dependencyTypesNot: ['type-only'] },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.(scss|css|png|svg)$', '^server/src/db/migrations/'] },
    // see type-only imports too (the circle rule leaves them out; the graph shows them)
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      // Taro builds index.h5.ts / index.weapp.ts per platform; the graph follows index.ts
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(node_modules/[^/]+|src/pages/[^/]+|server/src/[^/]+|src/[^/]+)/' },
      text: { highlightFocused: true },
    },
  },
}
