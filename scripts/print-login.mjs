// After `nuxt build` the setup's login line is hundreds of lines up: say it again where the newcomer
// looks, just before the server's "Listening on".
import { loginLines, readLogin } from './admin-login.mjs'

const login = readLogin()
if (login) console.log(loginLines(login).join('\n'))
else console.log('[setup] No admin login configured: set ADMIN_PASSWORD and ALLOWED_ADMIN_EMAILS in .env (README.md, "Configuration").')
