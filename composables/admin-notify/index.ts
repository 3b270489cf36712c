export { useDevicePush } from './useDevicePush'
export { usePendingTitle } from './usePendingTitle'
export { useNotifyActions } from './useNotifyActions'
