/** The hand-written start of `docs/configuration.md`; the tables follow from the spec. */
export const DOCS_INTRO = `# Configuration

<!-- Generated from server/config/spec.ts by \`npm run docs:config\`; do not edit by hand. -->

Pier works without any configuration: every key has a working default. The headless
server takes one optional argument, a configuration file (\`npm run serve -- pier.conf\`);
the desktop app writes its own settings and sets \`data-dir\` to its user-data folder.

## The file

HOCON is recommended; JSON is accepted too (a file ending in \`.json\` is read as JSON).
Every key lives under \`service.restserver\`, and the file needs only the keys that differ
from the defaults:

\`\`\`hocon
service.restserver {
  base-url = "https://files.example.org"
  bind { address = "0.0.0.0", port = 9090 }
  data-dir = "/var/lib/pier"
  backend.auth.server-secret = \${?PIER_SECRET}
  backend.files {
    default-store = filesystem
    stores.filesystem.enabled = true
  }
}
\`\`\`

\`\${?VAR}\` is replaced by the environment variable \`VAR\` when it is set (and otherwise
leaves the key alone). Keys outside \`service.restserver\` are ignored with a warning;
unknown keys below it are ignored with a warning that names the closest known key.

## Environment variables

Every key can also be set from the environment, and the environment wins over the
file. The name is \`SERVICE_\` followed by the key path below \`service.restserver\`,
with \`.\` and \`-\` replaced by \`_\`, upper-cased:

| Key | Variable |
|---|---|
| \`bind.port\` | \`SERVICE_BIND_PORT\` |
| \`backend.auth.http-basic.url\` | \`SERVICE_BACKEND_AUTH_HTTP_BASIC_URL\` |
| \`backend.files.stores.database.enabled\` | \`SERVICE_BACKEND_FILES_STORES_DATABASE_ENABLED\` |
| \`backend.share.database-domain-checks.0.enabled\` | \`SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_0_ENABLED\` |

- Lists: a comma-separated list or a JSON array (\`SERVICE_WEBAPP_RETRY_DELAYS=0,5000,10000\`).
- Map entries (\`<id>\` below) are reachable when the defaults or the file define the entry.
  A whole map or list of objects can be given as JSON (\`SERVICE_BACKEND_AUTH_OAUTH='{"gitlab": {...}}'\`);
  predefined entries keep their defaults for the keys it leaves out.
- Booleans: \`true\`/\`false\` (also \`yes\`/\`no\`, \`on\`/\`off\`, \`1\`/\`0\`).
- A \`SERVICE_\` variable that matches no key is reported with a warning.

## Durations and sizes

- Durations: a number of milliseconds, or a number and a unit: \`ms\`, \`s\`/\`seconds\`,
  \`m\`/\`minutes\`, \`h\`/\`hours\`, \`d\`/\`days\`, \`w\`/\`weeks\` (\`4 minutes\`, \`14 days\`, \`1.5 h\`).
- Sizes: a number of bytes, or a number and a binary unit: \`K\`, \`M\`, \`G\`, \`T\`
  (\`512K\` = 524288, \`10M\`, \`1.5G\` = 1610612736; \`KB\`, \`MiB\` and lower case work too).

## Validation

The configuration is checked at start-up. Every problem is reported at once, each with
its key and the bad value, and the server does not start. Beyond the types below:
\`webapp.auth-renewal\` must be at least 30 seconds below \`backend.auth.session-valid\`;
\`webapp.default-validity\` at most \`backend.share.max-validity\`; the default store must
exist and be enabled (disabled stores are dropped); \`copy-files\` needs two different
enabled stores; \`base-url\` must not end with a slash; enabled login modules and OAuth
providers need their URLs and credentials; \`jdbc:h2:\` URLs are refused (use
\`jdbc:sqlite:\`). A \`zip-max-size\` above \`max-size\` is capped with a warning, and an
unknown \`webapp.default-language\` falls back to \`gb\` with a warning.

When \`backend.auth.server-secret\` is empty, 32 random bytes are generated on the first
start and kept in \`<data-dir>/server-secret\` (as \`hex:...\`). Servers that must accept each
other's tokens need the same secret: copy that value into their configuration.
`;
