export { useServiceWorker } from './registration'
