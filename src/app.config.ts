import { buildAppConfig } from './constants/app-config'

// Generated from the route table (src/constants/routes.ts): add a route there, not here.
export default defineAppConfig(buildAppConfig())
