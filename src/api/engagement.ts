/** New-user guide, trial phone, play-trial landing, floating ball and invites (docs/api.md "Engagement"). */
import type {
  FloatingBallSettings,
  Invitee,
  NewUserGuideConfig,
  PlayTrialConfig,
  SaveFloatingBallBody,
  TrialPhone,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

export const getNewUserGuideConfig = async () =>
  (
    await client.get<NewUserGuideConfig>('/newUserGuide/getNewUserGuideConfig_V2', undefined, {
      loading: false,
    })
  ).data

/** Claims the one free trial phone of this account; 1017 when the trial phones are gone. */
export const receiveTrialPhone = () =>
  client.getOutcome<TrialPhone>('/newUserGuide/getNewUserReceiveEquipment')

/** Public: the game of the play-trial landing pages. */
export const getPlayTrialConfig = async (options?: Pick<RequestOptions, 'loading'>) =>
  (await client.get<PlayTrialConfig>('/playTrial/getConfig', undefined, options)).data

export const getFloatingBall = async () =>
  (await client.get<FloatingBallSettings>('/user/getFloatingBall')).data

export const saveFloatingBall = async (body: SaveFloatingBallBody) =>
  (await client.post<FloatingBallSettings>('/user/saveFloatingBall', body)).data

/** Who joined with my invite code, newest first. */
export const listInvitees = (page: number, rows?: number) =>
  client.fetchPage<Invitee>({ url: '/invite/list', page, rows })

export const engagementApi = {
  getNewUserGuideConfig,
  receiveTrialPhone,
  getPlayTrialConfig,
  getFloatingBall,
  saveFloatingBall,
  listInvitees,
}
export type EngagementApi = typeof engagementApi
