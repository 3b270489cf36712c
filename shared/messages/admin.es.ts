/**
 * Every text of the admin pages, in Spanish (neutral Latin American): the same shape as
 * `admin.pt-BR.ts` (`AdminMessages`).
 */
import type { Language, UploadStatus } from '#shared/enums'
import type { ErrorCode } from '#shared/errors'
import type { AdminMessages } from '#shared/messages/admin.pt-BR'
import {
  formatAgo, formatBytes, formatClock, formatCount, formatDateTime, formatDuration, formatHour, plural,
} from '#shared/messages/format.es'

/** Why an admin call failed, in words. */
const failures = {
  network: 'Sin conexión con el servidor. Revisa internet e intenta de nuevo.',
  generic: 'Algo salió mal. Intenta de nuevo.',
  byCode: {
    INVALID_REQUEST: 'Algún dato enviado no es válido.',
    UNAUTHENTICATED: 'Tu sesión terminó. Vuelve a entrar.',
    INVALID_CREDENTIALS: 'Correo o contraseña incorrectos.',
    FORBIDDEN_ORIGIN: 'Solicitud rechazada por seguridad. Recarga la página.',
    NOT_FOUND: 'Ese envío ya no existe.',
    NOT_ELIGIBLE: 'Solo una foto aprobada puede ser la portada.',
    RATE_LIMITED: 'Demasiadas solicitudes seguidas. Espera un poco.',
    STORAGE_UNAVAILABLE: 'El almacenamiento de archivos no está disponible. Intenta de nuevo en un momento.',
    DATABASE_UNAVAILABLE: 'La base de datos está ocupada. Intenta de nuevo en un momento.',
  } as Partial<Record<ErrorCode, string>>,
}

export const adminEs = {
  locale: 'es',
  format: {
    bytes: formatBytes, count: formatCount, clock: formatClock, dateTime: formatDateTime, hour: formatHour, ago: formatAgo,
    wait: formatDuration,
  },
  appName: 'Panel de los novios',

  login: {
    title: 'Entrar al panel',
    intro: 'Acceso solo para quienes organizan el evento.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Entrar',
    submitting: 'Entrando…',
    missingFields: 'Escribe tu correo y tu contraseña.',
    invalidCredentials: 'Correo o contraseña incorrectos.',
    rateLimited: (wait: string) => `Demasiados intentos fallidos. Intenta de nuevo en ${wait}.`,
    sessionEnded: 'Tu sesión terminó. Vuelve a entrar para continuar.',
  },

  nav: {
    label: 'Secciones del panel',
    moderation: 'Moderación',
    stats: 'Estadísticas',
    event: 'Evento',
    logout: 'Salir',
    loggingOut: 'Saliendo…',
    signedInAs: (email: string) => `Conectado como ${email}`,
  },

  filters: {
    label: 'Filtros',
    status: 'Estado',
    kind: 'Tipo',
    search: 'Buscar por nombre o mensaje',
    searchPlaceholder: 'Buscar…',
    statuses: { pending: 'Pendientes', approved: 'Aprobados', rejected: 'Rechazados', all: 'Todos' },
    kinds: { all: 'Fotos y videos', photo: 'Solo fotos', video: 'Solo videos' },
  },

  list: {
    loading: 'Cargando…',
    loadMore: 'Cargar más',
    showing: (shown: number, total: number, atLeast = false) => `${shown} de ${total}${atLeast ? '+' : ''}`,
    emptyPending: 'Nada esperando aprobación. Los envíos nuevos aparecen aquí solos.',
    empty: 'No hay envíos con esos filtros.',
    loadFailed: 'No se pudieron cargar los envíos.',
    retry: 'Intentar de nuevo',
    shortcuts: 'Atajos: j/k o flechas para moverte, a aprueba, r rechaza; shift+clic selecciona un rango.',
    title: 'Moderación de envíos',
    view: 'Vista',
    viewCards: 'Tarjetas',
    viewDense: 'Cuadrícula compacta',
    approveOnScreen: (count: number) => `Aprobar los ${count} de la pantalla`,
  },

  status: { pending: 'Pendiente', approved: 'Aprobado', rejected: 'Rechazado' } as Record<UploadStatus, string>,

  upload: {
    anonymous: 'Sin nombre',
    noMessage: 'Sin mensaje',
    photo: 'Foto',
    video: 'Video',
    select: 'Seleccionar',
    preview: (author: string) => `Ver en grande: envío de ${author}`,
    selectNamed: (author: string) => `Seleccionar el envío de ${author}`,
    approve: 'Aprobar',
    reject: 'Rechazar',
    delete: 'Eliminar',
    setCover: 'Portada',
    setCoverLong: 'Usar como portada del evento',
    isCover: 'Portada actual',
    coverNotEligible: 'Solo una foto aprobada puede ser la portada.',
    edit: 'Editar',
    save: 'Guardar',
    cancel: 'Cancelar',
    author: 'Nombre',
    message: 'Mensaje',
    sentAt: (when: string) => `Enviado ${when}`,
    noPoster: 'Video sin vista previa',
    openOriginal: 'Abrir el original',
    closePreview: 'Cerrar',
  },

  publicImage: {
    missing: { waiting: 'Todavía sin imagen pública', undecodable: 'Sin imagen pública' },
    why: {
      waiting: 'El servidor todavía está preparando la imagen que ve el público.',
      undecodable: 'El servidor no puede leer este formato (¿HEIC?) y el celular no envió las imágenes: el público no la ve.',
    },
  },

  bulk: {
    selected: (count: number) => `${count} ${plural(count, 'seleccionado', 'seleccionados')}`,
    selectAll: 'Seleccionar todos',
    clear: 'Quitar selección',
    range: 'Seleccionar un rango',
    rangeHint: 'Toca el último envío del rango.',
    approve: 'Aprobar',
    reject: 'Rechazar',
    delete: 'Eliminar',
  },

  confirm: {
    deleteOneTitle: '¿Eliminar este envío?',
    deleteManyTitle: (count: number) => `¿Eliminar ${count} ${plural(count, 'envío', 'envíos')}?`,
    deleteBody: 'El archivo se borra para siempre y desaparece de la galería. No se puede deshacer.',
    confirmDelete: 'Eliminar',
    approveManyTitle: (count: number) => `¿Aprobar ${count} ${plural(count, 'envío', 'envíos')}?`,
    approveManyBody: 'Aparecen en la galería y en la pantalla de inmediato.',
    confirmApprove: 'Aprobar',
    cancel: 'Cancelar',
  },

  feedback: {
    approved: 'Aprobado.',
    rejected: 'Rechazado.',
    deleted: 'Eliminado.',
    coverSet: 'Portada actualizada.',
    coverCleared: 'Portada quitada.',
    edited: 'Cambios guardados.',
    bulkDone: (count: number) => `${count} ${plural(count, 'envío actualizado', 'envíos actualizados')}.`,
    bulkNotFound: (count: number) => `${count} ${plural(count, 'envío ya no existía', 'envíos ya no existían')}.`,
    undone: (what: string) => `${what} No se cambió nada.`,
    dismiss: 'Cerrar aviso',
  },

  stats: {
    title: 'Estadísticas',
    total: 'Envíos',
    pending: 'Pendientes',
    approved: 'Aprobados',
    rejected: 'Rechazados',
    photos: 'Fotos',
    videos: 'Videos',
    totalBytes: 'Espacio usado',
    lastUpload: 'Último envío',
    never: 'ninguno todavía',
    perHourTitle: 'Envíos por hora',
    perHourEmpty: 'El gráfico aparece con los primeros envíos.',
    perHourBar: (hour: string, count: number) => `${hour}: ${count} ${plural(count, 'envío', 'envíos')}`,
    loadFailed: 'No se pudieron cargar las estadísticas.',
  },

  event: {
    title: 'Configuración del evento',
    coupleNames: 'Nombres de los novios',
    coupleNamesHint: 'Aparecen arriba en la página de inicio.',
    eventDate: 'Fecha del evento',
    eventDateHint: 'Déjala en blanco si todavía no hay fecha.',
    maxFileSize: 'Tamaño máximo por archivo (MB)',
    maxFileSizeHint: 'Los archivos más grandes se rechazan antes del envío. Hasta 10.240 MB (10 GB).',
    allowVideos: 'Aceptar videos',
    maxVideoDuration: 'Duración máxima de video (segundos)',
    maxVideoDurationHint: (seconds: number) => `Ahora: ${formatClock(seconds)} (hasta 7.200 segundos, 2 horas).`,
    moderation: 'Moderación',
    moderationPost: 'Posmoderación: aparece en la galería al instante; puedes rechazarlo después.',
    moderationPre: 'Premoderación: aparece en la galería solo después de que lo apruebes.',
    language: 'Idioma del evento',
    languageHint: 'La pantalla, la tarjeta para imprimir y las páginas de quienes usan un navegador en otro idioma hablan este.',
    save: 'Guardar configuración',
    saving: 'Guardando…',
    saved: 'Configuración guardada.',
    unchanged: 'No se cambió nada.',
    fixErrors: 'Corrige los campos marcados.',
    loadFailed: 'No se pudo cargar la configuración.',
    errors: {
      coupleNames: 'Escribe los nombres de los novios (hasta 120 caracteres).',
      eventDate: 'Escribe una fecha válida o déjala en blanco.',
      maxFileSizeBytes: 'Escribe un tamaño mayor que cero y de máximo 10.240 MB.',
      allowVideos: 'Valor no válido.',
      maxVideoDurationSec: 'Escribe un número entero de segundos entre 1 y 7.200.',
      moderation: 'Elige un modo de moderación.',
      language: 'Elige uno de los idiomas.',
      other: 'Valor no válido.',
    } as Record<string, string>,
  },

  cover: {
    title: 'Portada',
    none: 'Todavía no hay portada. Elige una foto aprobada en la moderación con “Usar como portada”.',
    alt: 'Foto de portada del evento',
    clear: 'Quitar portada',
  },

  share: {
    title: 'Código QR y exportación',
    intro: 'El código QR lleva a los invitados directo a la página de envío.',
    png: 'Código QR (PNG)',
    svg: 'Código QR (SVG)',
    pdf: 'Tarjeta para imprimir (PDF)',
    pdfIn: {
      'pt-BR': 'Tarjeta en portugués (PDF)',
      'en': 'Tarjeta en inglés (PDF)',
      'es': 'Tarjeta en español (PDF)',
    } as Record<Language, string>,
    pdfInHint: 'El código QR de cada tarjeta abre las páginas ya en su idioma.',
    exportZip: 'Descargar todas las fotos aprobadas (ZIP)',
    exportHint: 'Los originales aprobados, con una lista de autores y mensajes.',
    previewTitle: 'Vista previa',
    qrAlt: 'Código QR que lleva a la página de envío',
    cardPreview: 'Vista previa de la tarjeta para imprimir',
    /** As the PDF card prints it in Spanish (server/utils/qr/card.ts). */
    cardInstruction: 'Apunta la cámara',
  },

  slideshow: {
    title: 'Pantalla (proyector, TV o tablet)',
    intro: 'La pantalla muestra las fotos aprobadas, una por una, con el código QR para que los invitados envíen las suyas. Abre esta dirección en el equipo del salón; no es para los invitados.',
    photoSeconds: 'Segundos por foto',
    photoSecondsHint: (standard: number) => `De 2 a 60. Predeterminado: ${standard}.`,
    inviteEvery: 'Tarjeta “Envía tus fotos” cada',
    inviteEveryHint: (standard: number) => `Número de fotos entre una tarjeta y otra; 0 para nunca. Predeterminado: ${standard}.`,
    address: 'Dirección de la pantalla',
    open: 'Abrir la pantalla',
    installTitle: 'Cómo dejar la pantalla encendida toda la noche',
    install: [
      { device: 'Computadora en el proyector:', how: 'abre la dirección en Chrome o Chromium y presiona F para pantalla completa; o instálala como app (ícono de instalar en la barra de direcciones) o iníciala con chromium --kiosk seguido de la dirección. Desactiva la suspensión de la computadora.' },
      { device: 'Smart TV:', how: 'abre el navegador de la TV, escribe la dirección y activa la pantalla completa. Desactiva el apagado automático de la TV.' },
      { device: 'Tablet:', how: 'abre la dirección en Chrome (Android: menú ⋮ › Instalar app) o en Safari (iPad: Compartir › Agregar a inicio) y abre la pantalla desde el ícono creado: ocupa toda la pantalla. Deja la tablet conectada.' },
    ],
  },

  errors: {
    ...failures,
    describe(failure: { status: number | null, code: string | null }): string {
      if (failure.status === null) return failures.network
      return (failure.code ? failures.byCode[failure.code as ErrorCode] : undefined) ?? failures.generic
    },
    actionFailed: (action: string, reason: string) => `No se pudo ${action}: ${reason}`,
    actions: {
      approve: 'aprobar',
      reject: 'rechazar',
      delete: 'eliminar',
      setCover: 'definir la portada',
      clearCover: 'quitar la portada',
      edit: 'guardar la edición',
      bulk: 'aplicar la acción en lote',
      saveEvent: 'guardar la configuración',
      logout: 'salir',
    },
  },
} satisfies AdminMessages
