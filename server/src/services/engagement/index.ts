/** What the layers above (routes, jobs, the console, the composition root) use of engagement/. */
export { ActivityService } from './activity-service'
export { EngagementService } from './engagement-service'
export { MessageKind, MessageService } from './message-service'
