/**
 * The gateway's command routes: `POST /api/v1/player[/<id>]` (any command,
 * passed on unchanged), the `playerspecial` conveniences and `/api/v1/info`.
 * `GET /api/v1/player[/<id>]` is the WebSocket (see server/http/websocket.ts);
 * without an upgrade it answers 426.
 */
import type { Request, Response } from 'express';
import { AppError, badRequest } from '../../common/errors.js';
import { playerCommandOf } from '../../player/commands.js';
import { countCommand, listCommand, playlistinfoCommand, searchCommand, type Built, type Query } from '../../player/special.js';
import type { HttpDeps, RouteModule } from '../http-deps.js';
import { connectionId, routeCaller, sendEnvelope } from '../player-access.js';

const gateway = (deps: HttpDeps) => deps.player!.gateway;

export const playerRoutes: RouteModule = (api, deps) => {
  const command = async (req: Request, res: Response) => {
    const id = connectionId(deps, req.params);
    const command = playerCommandOf(req.body);
    if (command === undefined) throw badRequest('command', 'Send either command or commandRaw (base64).');
    const { outcome, body: envelope } = await gateway(deps).execute(id, command, routeCaller(res));
    sendEnvelope(res, outcome, envelope);
  };
  const upgradeRequired = (req: Request) => {
    connectionId(deps, req.params);
    throw new AppError('upgrade-required', 'This URL is the player WebSocket; send the command with POST or open a WebSocket.', { headers: { Upgrade: 'websocket' } });
  };
  for (const path of ['/api/v1/player', '/api/v1/player/{id}']) {
    api.route('post', path, command);
    api.route('get', path, upgradeRequired);
  }

  const special = (build: (q: Query) => Built) => async (req: Request, res: Response) => {
    const id = connectionId(deps, req.params);
    const built = build(req.query as Query);
    if (!built.ok) throw badRequest('query', built.message);
    const { outcome, body } = await gateway(deps).execute(id, built.command, routeCaller(res));
    sendEnvelope(res, outcome, body);
  };
  const fixed = (text: string) => () => ({ ok: true as const, command: text });
  const specials: Record<string, (q: Query) => Built> = {
    search: (q) => searchCommand('search', q),
    find: (q) => searchCommand('find', q),
    list: listCommand,
    count: countCommand,
    currentsong: fixed('currentsong'),
    status: fixed('status'),
    stats: fixed('stats'),
    playlistinfo: playlistinfoCommand,
    listplaylists: fixed('listplaylists'),
  };
  for (const [name, build] of Object.entries(specials)) {
    api.route('get', `/api/v1/playerspecial/${name}`, special(build));
    api.route('get', `/api/v1/playerspecial/{id}/${name}`, special(build));
  }

  api.route('get', '/api/v1/info', (_req, res) => {
    res.json({ name: deps.config.webapp.appName, version: deps.version.version, connections: gateway(deps).connections() });
  });
};
