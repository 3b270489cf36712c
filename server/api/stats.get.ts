export default defineEventHandler(() => publicStats())
