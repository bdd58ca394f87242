/** The hand-written start of `docs/configuration.md`; the tables follow from the spec. */
export const DOCS_INTRO = `# Configuration

<!-- Generated from server/config/spec.ts by \`npm run docs:config\`; do not edit by hand. -->

Pier works without any configuration: every key has a working default. The headless
server takes one optional argument, a configuration file (\`npm run serve -- pier.conf\`);
without it, the file named by the environment variable \`SERVICE_CONFIG_FILE\` is read, if
set (a file that cannot be read stops the start). The desktop app writes its own settings
and sets \`data-dir\` to its user-data folder.

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
leaves the key alone); \`\${java.io.tmpdir}\` is the operating system's temp directory.
\`include "other.conf"\` reads another file in place. Keys outside \`service.restserver\` are
ignored with a warning; unknown keys below it are ignored with a warning that names the
closest known key.

Keys whose type says _optional_ mean "not set" when empty, and \`null\` is read as empty
(\`backend.auth.proxy.email-header = null\`: no e-mail header). \`null\` for any other key is an
error.

## Environment variables

Every key can also be set from the environment, and the environment wins over the
file. The name is \`SERVICE_\` followed by the key path below \`service.restserver\`,
with \`.\` and \`-\` replaced by \`_\`, upper-cased:

| Key | Variable |
|---|---|
| \`bind.port\` | \`SERVICE_BIND_PORT\` |
| \`backend.auth.http-basic.url\` | \`SERVICE_BACKEND_AUTH_HTTP_BASIC_URL\` |
| \`backend.files.stores.database.enabled\` | \`SERVICE_BACKEND_FILES_STORES_DATABASE_ENABLED\` |
| \`backend.share.database-domain-checks.snakeoil.enabled\` | \`SERVICE_BACKEND_SHARE_DATABASE_DOMAIN_CHECKS_SNAKEOIL_ENABLED\` |

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
providers need their URLs and credentials (an enabled \`fixed\` login needs its \`user\` and
\`password\`: there is no default); \`jdbc:h2:\` URLs are refused (use \`jdbc:sqlite:\`). A
\`zip-max-size\` above \`max-size\` is capped with a warning, and an unknown
\`webapp.default-language\` falls back to \`gb\` with a warning.

When \`backend.auth.server-secret\` is empty, 32 random bytes are generated on the first
start and kept in \`<data-dir>/server-secret\` (as \`hex:...\`). Servers that must accept each
other's tokens need the same secret: copy that value into their configuration.

## Coming from Sharry

A Sharry configuration works in Pier once its root is renamed. What carries over unchanged:

- Every key of Sharry's \`reference.conf\`, with the same meaning, and the file formats:
  HOCON or JSON, \`include\`, \`\${?VAR}\`, \`\${java.io.tmpdir}\`, durations and sizes.
- \`database-domain-checks\` as named entries (\`snakeoil = { enabled, native, message }\`),
  merged into the predefined \`snakeoil\` entry; a list works too.
- \`null\` for an optional key, as in the files Sharry's NixOS module writes
  (\`email-header = null\`, \`user-email-key = null\`).
- PostgreSQL and MariaDB URLs (\`jdbc:postgresql://host:port/db\`, \`jdbc:mariadb://host:port/db\`).
  Pier keeps its own tables, so give it a database of its own: Sharry's data is not converted.
- The command line: the configuration file is the only argument.

What is renamed:

| Sharry | Pier |
|---|---|
| \`sharry.restserver { ... }\` | \`service.restserver { ... }\` (a \`sharry\` root is ignored, with a warning saying to rename it) |
| \`SHARRY_BIND_PORT\`, ... | \`SERVICE_BIND_PORT\`, ... (the same rule, \`SERVICE_\` instead of \`SHARRY_\`) |
| \`SHARRY_CONFIG_FILE\` | \`SERVICE_CONFIG_FILE\` |
| headers \`Sharry-Auth\`, \`Sharry-Alias\`, \`Sharry-Password\`, \`Sharry-File-*\` | \`Service-Auth\`, \`Service-Alias\`, \`Service-Password\`, \`Service-File-*\` |
| cookie \`sharry_auth\` | \`service_auth\` |
| \`webapp.auto-publish-enabled\` | \`webapp.publish-on-upload\` (Sharry's name still decides it when set, with a warning saying to rename it) |

A few of Sharry's variables do not follow its own naming rule; Pier's all do, and a
\`SERVICE_\` variable that matches no key is reported with the closest name:
\`SERVICE_WEBAPP_NAME\` is \`SERVICE_WEBAPP_APP_NAME\` (likewise \`WEBAPP_ICON\`, \`WEBAPP_LOGO\`,
\`WEBAPP_FOOTER\`, ... are \`WEBAPP_APP_ICON\`, \`WEBAPP_APP_LOGO\`, \`WEBAPP_APP_FOOTER\`, ...),
\`SERVICE_FILE_DOWNLOAD_CHUNK_SIZE\` is \`SERVICE_FILE_DOWNLOAD_DOWNLOAD_CHUNK_SIZE\`, and proxy
login is \`SERVICE_BACKEND_AUTH_PROXY_*\` (Sharry reads \`SHARRY_BACKEND_AUTH_INTERNAL_*\` there;
in Pier \`SERVICE_BACKEND_AUTH_INTERNAL_ENABLED\` is the internal login module's). Instead of
Sharry's \`..._IDS\` and \`..._NAMES\` lists, define new map entries in the file or give the
whole map as JSON. Java system properties (\`-Dsharry.restserver...\`) have no counterpart:
use the environment.

What Pier refuses, and why (the server does not start and names the key):

- \`jdbc:h2:\` URLs, Sharry's default database included: there is no H2 for Node. Use
  \`jdbc:sqlite:<file>\`, or drop the key to get \`<data-dir>/pier.db\`.
- \`backend.auth.fixed.enabled = true\` without \`user\` and \`password\`: Sharry falls back to
  \`admin\`/\`admin\`, a login anyone can guess; Pier has no default and asks for both.
- A \`SERVICE_CONFIG_FILE\` naming a file that does not exist (Sharry starts on its defaults
  instead).
- \`null\` for a key that is not optional, and a \`base-url\` that ends with a slash.
- Java system properties in \`\${...}\` other than \`\${java.io.tmpdir}\` (\`\${user.home}\`, ...):
  the file does not parse.
- A data directory (new in Pier, see \`data-dir\`) that another user owns or others can write.

What Pier lets start but warns about at every start, as an error in the log, until it is
changed: a \`backend.auth.fixed.password\` shorter than \`backend.auth.password-min-length\`
(8 characters by default), such as Sharry's documented \`admin\`/\`admin\`. The operator wrote
it in their own file, so the fixed login works; every other password (sign-up, an admin's
reset, a password change) must have at least that many characters, where Sharry has no
minimum.

What Pier ignores, with a warning: \`server-secret = "hex:caffee"\`, the example secret of
Sharry's \`reference.conf\`, which would let anyone who knows it forge tokens; Pier uses the
secret it generated and keeps in the data directory instead (remove the key to silence the
warning). Logger names in \`logging.levels\` are Pier's
(\`pier\`, \`pier.http\`, ...); Sharry's (\`sharry\`, \`org.http4s\`, ...) are accepted and
have no effect.

Defaults that differ from Sharry's: the database (\`jdbc:sqlite:<data-dir>/pier.db\`), the
server secret (generated), the fixed login (none), the names in texts (\`app-name\`,
\`list-id\` and the mail templates say Pier), publishing a share as its upload ends
(\`publish-on-upload\`, on; Sharry's \`auto-publish-enabled\` is off), and the predefined stores
and OAuth providers (see below). A file that sets these keys keeps its values.
`;
