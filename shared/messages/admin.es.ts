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
    guestbook: 'Mensajes',
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
    hasMessage: 'Tiene mensaje',
    photo: 'Foto',
    video: 'Video',
    audio: 'Mensaje de voz',
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

  reactions: {
    counts: (hearts: number, comments: number) =>
      `${hearts} ${plural(hearts, 'corazón', 'corazones')} · ${comments} ${plural(comments, 'comentario', 'comentarios')}`,
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

  guestbook: {
    title: 'Mensajes para los novios',
    search: 'Buscar por nombre o mensaje',
    empty: 'Ningún mensaje con estos filtros.',
    emptyPending: 'Ningún mensaje esperando aprobación.',
    loadFailed: 'No se pudieron cargar los mensajes.',
    voice: (duration: string) => `Mensaje de voz, ${duration}`,
    selectNamed: (author: string) => `Seleccionar el mensaje de ${author}`,
    deleteTitle: (count: number) => `¿Eliminar ${count} ${plural(count, 'mensaje', 'mensajes')}?`,
    deleteBody: 'El mensaje se borra para siempre (un mensaje de voz, con su audio). Esto no se puede deshacer.',
    bulkDone: (count: number) => `${count} ${plural(count, 'mensaje actualizado', 'mensajes actualizados')}.`,
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
    allowAudio: 'Aceptar mensajes de voz',
    maxAudioDuration: 'Duración máxima del mensaje de voz (segundos)',
    moderation: 'Moderación',
    moderationPost: 'Posmoderación: aparece en la galería al instante; puedes rechazarlo después.',
    moderationPre: 'Premoderación: aparece en la galería solo después de que lo apruebes.',
    galleryMode: 'Galería para los invitados',
    galleryModeLive: 'Abierta: las fotos aprobadas aparecen al instante.',
    galleryModeUploadOnly: 'Solo envío: los invitados envían, pero no ven la galería (la pantalla la sigue mostrando, si lo permites).',
    galleryModeReveal: 'Revelación: cerrada hasta el momento elegido, después abierta.',
    revealAt: 'Revelar el',
    revealAtHint: 'Fecha y hora en la zona horaria de este dispositivo. La galería se abre sola en ese momento.',
    galleryPin: 'PIN de la galería',
    galleryPinHint: 'De 4 a 8 números que los invitados escriben para ver la galería. En blanco: sin PIN.',
    guestDownloads: 'Los invitados pueden descargar las fotos',
    guestDownloadsHint: 'Muestra un botón de descarga (sin los datos de ubicación) y el ZIP de todas las fotos.',
    maxUploadsPerGuest: 'Límite de envíos por invitado',
    maxUploadsPerGuestHint: 'Como una cámara desechable: de 1 a 1.000 por celular. En blanco: sin límite.',
    screenInClosedMode: 'La pantalla muestra las fotos aunque la galería esté cerrada',
    screenSound: 'La pantalla reproduce los mensajes de voz aprobados',
    screenSoundHint: 'Apagado, la pantalla muestra cada mensaje de voz como una tarjeta, sin sonido. Encendido, el navegador de la pantalla solo reproduce sonido después de que alguien toque (o haga clic en) la pantalla una vez: hazlo al instalar la pantalla. Una pantalla ya abierta sigue como estaba hasta que se recargue.',
    language: 'Idioma del evento',
    languageHint: 'La pantalla, la tarjeta para imprimir y las páginas de quienes usan un navegador en otro idioma hablan este.',
    save: 'Guardar configuración',
    saving: 'Guardando…',
    saved: 'Configuración guardada.',
    unchanged: 'No se cambió nada.',
    fixErrors: 'Corrige los campos marcados.',
    loadFailed: 'No se pudo cargar la configuración.',
    pinGuesses: {
      spending: (wrong: number, perHour: number) => `Alguien está intentando adivinar el PIN de la galería: ${formatCount(wrong)} intentos fallidos en la última hora, de un máximo de ${formatCount(perHour)} por hora para todo el evento. Quien ya abrió la galería la sigue viendo.`,
      spent: (until: string, perHour: number) => `Alguien está intentando adivinar el PIN de la galería: se agotaron los ${formatCount(perHour)} intentos de la última hora. Hasta ${formatDateTime(until)}, quien todavía no abrió la galería no puede abrirla, ni con el PIN correcto. Quien ya la abrió la sigue viendo.`,
      suggestLonger: (digits: number) => `Usa un PIN más largo (${digits} números o más): cada número extra hace que adivinarlo sea 10 veces más lento. Después, pasa el nuevo PIN a los invitados.`,
    },
    errors: {
      coupleNames: 'Escribe los nombres de los novios (hasta 120 caracteres).',
      eventDate: 'Escribe una fecha válida o déjala en blanco.',
      maxFileSizeBytes: 'Escribe un tamaño mayor que cero y de máximo 10.240 MB.',
      allowVideos: 'Valor no válido.',
      maxVideoDurationSec: 'Escribe un número entero de segundos entre 1 y 7.200.',
      moderation: 'Elige un modo de moderación.',
      allowAudio: 'Valor no válido.',
      maxAudioDurationSec: 'Escribe un número entero de segundos entre 1 y 600.',
      galleryMode: 'Elige cómo se abre la galería.',
      revealAt: 'Escribe la fecha y la hora de la revelación.',
      galleryPin: 'El PIN tiene de 4 a 8 números.',
      maxUploadsPerGuest: 'Escribe un número entero entre 1 y 1.000, o déjalo en blanco.',
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
    /** The QR code encodes the address this page was opened on (server/utils/qr/target.ts). */
    addressLoopback: (address: string) => `Atención: el código QR llevará a ${address}, una dirección que solo funciona en esta computadora. Los celulares de los invitados no la van a abrir. Antes de imprimir o descargar, abre este panel desde la dirección pública del sitio.`,
    addressPrivate: (address: string) => `Atención: el código QR llevará a ${address}, una dirección de la red local. Solo la abrirán los celulares conectados a esta misma red Wi-Fi. Para los demás, abre este panel desde la dirección pública del sitio antes de imprimir.`,
  },

  slideshow: {
    title: 'Pantalla (proyector, TV o tablet)',
    intro: 'La pantalla muestra las fotos aprobadas, una por una, con el código QR para que los invitados envíen las suyas. Abre esta dirección en el equipo del salón; no es para los invitados.',
    photoSeconds: 'Segundos por foto',
    photoSecondsHint: (standard: number) => `De 2 a 60. Predeterminado: ${standard}.`,
    inviteEvery: 'Tarjeta “Envía tus fotos” cada',
    inviteEveryHint: (standard: number) => `Número de fotos entre una tarjeta y otra; 0 para nunca. Predeterminado: ${standard}.`,
    address: 'Dirección de la pantalla',
    addressHint: 'Lleva la clave de la pantalla: con ella, muestra las fotos aunque la galería esté cerrada o tenga PIN. No la compartas.',
    rotateKey: 'Cambiar la clave',
    rotateKeyConfirm: '¿Cambiar la clave? Las pantallas abiertas con la dirección anterior dejan de mostrar la galería cerrada.',
    rotateKeyDone: 'Clave cambiada. Abre la nueva dirección en la pantalla.',
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
