// Shapes of the server's JSON answers used by the web client, by the names of
// server/openapi.yml. schema.d.ts is generated from that file (`npm run gen:api-types`);
// `npm run typecheck` fails when it is out of date.
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** `GET /api/v2/open/info/appconfig`: the client settings. */
export type AppConfig = Schemas['AppConfig'];
export type AuthResult = Schemas['AuthResult'];
export type IdResult = Schemas['IdResult'];
export type ShareListItem = Schemas['ShareListItem'];
export type ShareFile = Schemas['ShareFile'];
export type ShareDetail = Schemas['ShareDetail'];
/** `GET /api/v2/sec/share/{id}/activity`: one page of a share's activity log */
export type ShareActivity = Schemas['ShareActivity'];
export type ActivityItem = Schemas['ActivityItem'];
export type ShareProperties = Schemas['ShareProperties'];
/** `GET /api/v2/sec/info/addresses`: where other devices on the network reach the server */
export type Addresses = Schemas['Addresses'];
/** `GET /api/v2/open/alias/{id}`: an upload link as its guests see it */
export type AliasInfo = Schemas['OpenAlias'];
export type MailTemplate = Schemas['MailTemplate'];
export type AccountDetail = Schemas['AccountDetail'];
export type AccountState = AccountDetail['state'];
export type AccountCreate = Schemas['AccountCreate'];
export type AccountModify = Schemas['AccountModify'];
export type InviteResult = Schemas['InviteResult'];
export type PasswordChangeResult = Schemas['PasswordChangeResult'];
export type AccountLight = Schemas['AccountLight'];
/** An upload link (alias) as its owner and members see it. */
export type AliasDetail = Schemas['AliasDetail'];
/** A new or changed upload link: `id` absent on create (the server picks one); absent fields unchanged or none. */
export type AliasChange = Schemas['AliasChange'];
/** A room link as its owner sees it (`/api/v1/rooms`). */
export type Room = Schemas['Room'];
export type RoomInput = Schemas['RoomInput'];
/** `GET /api/v1/open/room/{id}`: what a guest sees before joining */
export type RoomInfo = Schemas['RoomInfo'];
export type RoomJoinResult = Schemas['RoomJoinResult'];
/** `GET /api/v1/room/{id}/state` and the `RoomState` frames */
export type RoomState = Schemas['RoomState'];
export type RoomQueueEntry = Schemas['RoomQueueEntry'];
export type RoomSong = Schemas['RoomSong'];
export type RoomAddedBy = Schemas['RoomAddedBy'];
export type RoomSkipResult = Schemas['RoomSkipResult'];
