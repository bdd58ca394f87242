import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/log.js';
import type { Config } from '../config/types.js';
import type { AccountService } from '../core/accounts/account.service.js';
import type { ActivityService } from '../core/activity/activity.service.js';
import type { AliasService } from '../core/aliases/alias.service.js';
import type { GuestUploads } from '../core/aliases/guest-uploads.js';
import type { AuthService } from '../core/auth/auth.service.js';
import type { OAuthService } from '../core/auth/oauth.types.js';
import type { VersionInfo } from '../core/info/version.js';
import type { DownloadService } from '../core/downloads/download.service.js';
import type { MailService } from '../core/mail/mail.service.js';
import type { ShareService } from '../core/shares/share.service.js';
import type { SignupService } from '../core/signup/signup.service.js';
import type { StoreRegistry } from '../core/stores/binary-store.js';
import type { UploadService } from '../core/uploads/upload.service.js';
import type { RoomService } from '../core/rooms/room.service.js';
import type { CoverService } from '../player/covers/covers.service.js';
import type { PlayerGateway } from '../player/gateway.service.js';
import type { ClientOrigin, Links } from './client-origin.js';
import type { OpenApiRouter } from './openapi.js';

/** What the routes get from the composition root. */
export interface HttpDeps {
  config: Config;
  log: Logger;
  /** the time for waits and ages measured in the HTTP layer (the tus lock wait) */
  clock: Clock;
  version: VersionInfo;
  /** the client's address and the forwarding headers believed (only from `trusted-proxies`) */
  origin: ClientOrigin;
  /** the base URL of links built for a request, and the origin it addressed */
  links: Links;
  auth: AuthService;
  oauth: OAuthService;
  accounts: AccountService;
  signup: SignupService;
  /** the enabled binary stores (`stores.defaultStore` for new files) */
  stores: StoreRegistry;
  /** owner share operations and public access by publish id */
  shares: ShareService;
  /** the receipts: each share's activity log */
  activity: ActivityService;
  /** file and ZIP downloads */
  downloads: DownloadService;
  /** multipart and tus uploads */
  uploads: UploadService;
  /** aliases (owner side, guest check, the guest page's info) */
  aliases: AliasService;
  /** guest upload completion: the server event and the notification mail */
  guestUploads: GuestUploads;
  /** mail templates and sending */
  mail: MailService;
  /** the music gateway and its covers; absent when `player.enabled` is false (its routes then answer 404) */
  player?: { gateway: PlayerGateway; covers: CoverService };
  /** rooms (guests adding songs); absent when the player is disabled */
  rooms?: RoomService;
}

export type RouteModule = (api: OpenApiRouter, deps: HttpDeps) => void;
