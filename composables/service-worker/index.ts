export { forgetPrivateMedia, useServiceWorker } from './registration'
