export default defineEventHandler(async () => toPublicEventInfo(await getEventSettings()))
