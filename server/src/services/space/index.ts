/** What the layers above (routes, jobs, the console, the composition root) use of space/. */
export { SpaceService } from './space-service'
export { SPACE_TASK_JOB } from './space-task-runner'
