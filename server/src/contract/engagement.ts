import { Type, type Static } from '@sinclair/typebox'

export const GuideStep = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  /** A bundled asset name (guide-1 …) or an absolute file URL. */
  image: Type.String(),
})
export type GuideStep = Static<typeof GuideStep>

export const TrialOffer = Type.Object({
  /** Offered to this user now: enabled, never claimed, and in stock. */
  enabled: Type.Boolean(),
  goodId: Type.Integer(),
  goodName: Type.String(),
  configName: Type.String(),
  /** How long the trial phone runs. */
  minutes: Type.Integer(),
  /** 'mostStock': the zone with the most stock of the goods when claimed. */
  zonePolicy: Type.String(),
  claimed: Type.Boolean(),
  inStock: Type.Boolean(),
})
export type TrialOffer = Static<typeof TrialOffer>

export const NewUserGuideConfig = Type.Object({
  steps: Type.Array(GuideStep),
  trialOffer: TrialOffer,
})
export type NewUserGuideConfig = Static<typeof NewUserGuideConfig>

export const TrialPhone = Type.Object({
  deviceId: Type.Integer(),
  name: Type.String(),
  zoneName: Type.String(),
  expireAt: Type.Integer(),
})
export type TrialPhone = Static<typeof TrialPhone>

export const PlayTrialConfig = Type.Object({
  gameName: Type.String(),
  description: Type.String(),
  highlights: Type.Array(Type.String()),
  packageName: Type.String(),
  /** bytes */
  packageSize: Type.Integer(),
  version: Type.String(),
  downloadUrl: Type.String(),
  /** The trial phone: goods and duration; `offered` is false when the operator turned it off. */
  trial: Type.Object({
    offered: Type.Boolean(),
    goodName: Type.String(),
    configName: Type.String(),
    minutes: Type.Integer(),
  }),
})
export type PlayTrialConfig = Static<typeof PlayTrialConfig>

export const FloatingBallSettings = Type.Object({
  visible: Type.Boolean(),
  side: Type.Union([Type.Literal('left'), Type.Literal('right')]),
  /** percent, 30–100 */
  opacity: Type.Integer(),
  shortcuts: Type.Array(Type.String()),
})
export type FloatingBallSettings = Static<typeof FloatingBallSettings>

/** Loosely typed on purpose: the service checks each field and says in Chinese what is wrong. */
export const SaveFloatingBallBody = Type.Object({
  visible: Type.Boolean(),
  side: Type.String({ maxLength: 16 }),
  opacity: Type.Number(),
  shortcuts: Type.Array(Type.String({ maxLength: 16 }), { maxItems: 12 }),
})
export type SaveFloatingBallBody = Static<typeof SaveFloatingBallBody>

export const ControlSessionQuery = Type.Object({ session: Type.String({ maxLength: 128 }) })

export const Invitee = Type.Object({
  /** 138****0001 */
  mobilePhone: Type.String(),
  joinedAt: Type.Integer(),
})
export type Invitee = Static<typeof Invitee>
