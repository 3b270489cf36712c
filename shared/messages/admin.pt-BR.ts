/**
 * Every text of the admin pages (/admin/login, /admin), in Brazilian Portuguese. The guest pages
 * have their own file; a second language for the admin is a second file of the same shape
 * (`AdminMessages`), and components never hold a sentence of their own.
 */
import type { Language, NotifyFormat, NotifyKind, NotifyOn, UploadStatus, VideoDisplay } from '#shared/enums'
import type { ErrorCode } from '#shared/errors'
import type { TextsOf } from '#shared/messages/shape'
import {
  formatAgo, formatBytes, formatClock, formatCount, formatDateTime, formatDuration, formatHour, plural,
} from '#shared/messages/format.pt-BR'

/** Why an admin call failed, in words. */
const failures = {
  network: 'Sem conexão com o servidor. Verifique a internet e tente de novo.',
  generic: 'Algo deu errado. Tente de novo.',
  byCode: {
    MOMENT_EXISTS: 'Já existe um momento com esse nome.',
    INVALID_REQUEST: 'Algum dado enviado é inválido.',
    UNAUTHENTICATED: 'Sua sessão terminou. Entre de novo.',
    INVALID_CREDENTIALS: 'E-mail ou senha incorretos.',
    FORBIDDEN_ORIGIN: 'Pedido recusado por segurança. Recarregue a página.',
    NOT_FOUND: 'Esse envio não existe mais.',
    NOT_ELIGIBLE: 'Só uma foto aprovada pode ser a capa.',
    RATE_LIMITED: 'Muitos pedidos seguidos. Espere um pouco.',
    STORAGE_UNAVAILABLE: 'O armazenamento de arquivos está fora do ar. Tente de novo em instantes.',
    DATABASE_UNAVAILABLE: 'O banco de dados está ocupado. Tente de novo em instantes.',
  } as Partial<Record<ErrorCode, string>>,
}

export const adminPtBR = {
  locale: 'pt-BR',
  format: {
    bytes: formatBytes, count: formatCount, clock: formatClock, dateTime: formatDateTime, hour: formatHour, ago: formatAgo,
    /** How long to wait: "30 segundos", "1 min 30 s". */
    wait: formatDuration,
  },
  appName: 'Painel do casal',

  login: {
    title: 'Entrar no painel',
    intro: 'Acesso restrito a quem organiza o evento.',
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    submitting: 'Entrando…',
    missingFields: 'Informe o e-mail e a senha.',
    invalidCredentials: 'E-mail ou senha incorretos.',
    rateLimited: (wait: string) => `Muitas tentativas erradas. Tente de novo em ${wait}.`,
    sessionEnded: 'Sua sessão terminou. Entre de novo para continuar.',
  },

  nav: {
    label: 'Seções do painel',
    moderation: 'Moderação',
    stats: 'Estatísticas',
    event: 'Evento',
    guestbook: 'Recados',
    comments: 'Comentários',
    logout: 'Sair',
    loggingOut: 'Saindo…',
    signedInAs: (email: string) => `Conectado como ${email}`,
  },

  filters: {
    label: 'Filtros',
    status: 'Situação',
    kind: 'Tipo',
    search: 'Buscar por nome ou mensagem',
    searchPlaceholder: 'Buscar…',
    statuses: { pending: 'Pendentes', approved: 'Aprovados', rejected: 'Recusados', all: 'Todos' },
    kinds: { all: 'Fotos e vídeos', photo: 'Só fotos', video: 'Só vídeos' },
    sort: 'Ordem',
    sorts: { newest: 'Mais recentes', hearts: 'Mais corações' },
    /** The uploads of one moment of the day, or of one challenge (the couple's words, as typed). */
    moment: 'Momento',
    allMoments: 'Todos os momentos',
    challenge: 'Desafio',
    allChallenges: 'Todos os desafios',
  },

  list: {
    loading: 'Carregando…',
    loadMore: 'Carregar mais',
    showing: (shown: number, total: number, atLeast = false) => `${shown} de ${total}${atLeast ? '+' : ''}`,
    emptyPending: 'Nada esperando aprovação. Novos envios aparecem aqui sozinhos.',
    empty: 'Nenhum envio encontrado com esses filtros.',
    loadFailed: 'Não foi possível carregar os envios.',
    retry: 'Tentar de novo',
    shortcuts: 'Atalhos: j/k ou setas movem, a aprova, r recusa; shift+clique seleciona um intervalo.',
    title: 'Moderação dos envios',
    view: 'Exibição',
    viewCards: 'Cartões',
    viewDense: 'Grade compacta',
    approveOnScreen: (count: number) => `Aprovar os ${count} da tela`,
  },

  status: { pending: 'Pendente', approved: 'Aprovado', rejected: 'Recusado' } as Record<UploadStatus, string>,

  upload: {
    anonymous: 'Sem nome',
    noMessage: 'Sem mensagem',
    hasMessage: 'Tem mensagem',
    photo: 'Foto',
    video: 'Vídeo',
    audio: 'Recado de voz',
    select: 'Selecionar',
    preview: (author: string) => `Ver em tamanho grande: envio de ${author}`,
    selectNamed: (author: string) => `Selecionar o envio de ${author}`,
    approve: 'Aprovar',
    reject: 'Recusar',
    delete: 'Excluir',
    setCover: 'Capa',
    setCoverLong: 'Usar como capa do evento',
    isCover: 'Capa atual',
    coverNotEligible: 'Só uma foto aprovada pode ser a capa.',
    edit: 'Editar',
    save: 'Salvar',
    cancel: 'Cancelar',
    author: 'Nome',
    message: 'Mensagem',
    sentAt: (when: string) => `Enviado ${when}`,
    noPoster: 'Vídeo sem prévia',
    /** O que os convidados veem de um vídeo cujo codec nem toda tela toca (docs/api.md, "Display copies"). */
    display: { 'pending': 'Cópia reproduzível em preparo', 'copy': 'Convidados veem uma cópia reproduzível', 'poster-only': 'Convidados veem só a imagem' } as Record<Exclude<VideoDisplay, 'original'>, string>,
    openOriginal: 'Abrir o original',
    closePreview: 'Fechar',
  },

  /** Guests' hearts and comments on an upload (its card). */
  reactions: {
    counts: (hearts: number, comments: number) =>
      `${hearts} ${plural(hearts, 'coração', 'corações')} · ${comments} ${plural(comments, 'comentário', 'comentários')}`,
  },

  publicImage: {
    missing: { waiting: 'Sem imagem pública ainda', undecodable: 'Sem imagem pública' },
    why: {
      waiting: 'O servidor ainda está preparando a imagem que o público vê.',
      undecodable: 'O servidor não consegue ler este formato (HEIC?) e o celular não enviou as imagens: o público não a vê.',
    },
  },

  bulk: {
    selected: (count: number) => `${count} ${plural(count, 'selecionado', 'selecionados')}`,
    selectAll: 'Selecionar todos',
    clear: 'Limpar seleção',
    range: 'Selecionar intervalo',
    rangeHint: 'Toque no último envio do intervalo.',
    // Short: the bar already says how many are selected.
    approve: 'Aprovar',
    reject: 'Recusar',
    delete: 'Excluir',
    /** Puts every selected upload in one moment of the day. */
    moveToMoment: 'Mover para o momento…',
    noMoment: 'Sem momento',
  },

  confirm: {
    deleteOneTitle: 'Excluir este envio?',
    deleteManyTitle: (count: number) => `Excluir ${count} ${plural(count, 'envio', 'envios')}?`,
    deleteBody: 'O arquivo é apagado para sempre e some da galeria. Isso não pode ser desfeito.',
    confirmDelete: 'Excluir',
    approveManyTitle: (count: number) => `Aprovar ${count} ${plural(count, 'envio', 'envios')}?`,
    approveManyBody: 'Eles aparecem na galeria e no telão agora mesmo.',
    confirmApprove: 'Aprovar',
    cancel: 'Cancelar',
  },

  feedback: {
    approved: 'Aprovado.',
    rejected: 'Recusado.',
    deleted: 'Excluído.',
    coverSet: 'Capa atualizada.',
    coverCleared: 'Capa removida.',
    edited: 'Alterações salvas.',
    bulkDone: (count: number) => `${count} ${plural(count, 'envio atualizado', 'envios atualizados')}.`,
    bulkNotFound: (count: number) => `${count} ${plural(count, 'envio já não existia', 'envios já não existiam')}.`,
    undone: (what: string) => `${what} Nada foi alterado.`,
    dismiss: 'Fechar aviso',
  },

  guestbook: {
    title: 'Recados para o casal',
    search: 'Buscar por nome ou recado',
    empty: 'Nenhum recado com esses filtros.',
    emptyPending: 'Nenhum recado esperando aprovação.',
    loadFailed: 'Não foi possível carregar os recados.',
    voice: (duration: string) => `Recado de voz, ${duration}`,
    selectNamed: (author: string) => `Selecionar o recado de ${author}`,
    deleteTitle: (count: number) => `Excluir ${count} ${plural(count, 'recado', 'recados')}?`,
    deleteBody: 'O recado é apagado para sempre (um recado de voz, com o seu áudio). Isso não pode ser desfeito.',
    bulkDone: (count: number) => `${count} ${plural(count, 'recado atualizado', 'recados atualizados')}.`,
  },

  comments: {
    title: 'Comentários nas fotos',
    search: 'Buscar por nome ou comentário',
    empty: 'Nenhum comentário com esses filtros.',
    emptyPending: 'Nenhum comentário esperando aprovação.',
    loadFailed: 'Não foi possível carregar os comentários.',
    selectNamed: (author: string) => `Selecionar o comentário de ${author}`,
    photoOf: (author: string) => `A foto que ${author} comentou (abre em outra aba)`,
    noPhoto: 'Foto sem miniatura',
    deleteTitle: (count: number) => `Excluir ${count} ${plural(count, 'comentário', 'comentários')}?`,
    deleteBody: 'O comentário é apagado para sempre. Isso não pode ser desfeito.',
    bulkDone: (count: number) => `${count} ${plural(count, 'comentário atualizado', 'comentários atualizados')}.`,
  },

  stats: {
    title: 'Estatísticas',
    total: 'Envios',
    pending: 'Pendentes',
    approved: 'Aprovados',
    rejected: 'Recusados',
    photos: 'Fotos',
    videos: 'Vídeos',
    totalBytes: 'Espaço usado',
    lastUpload: 'Último envio',
    never: 'nenhum ainda',
    perHourTitle: 'Envios por hora',
    perHourEmpty: 'O gráfico aparece com os primeiros envios.',
    perHourBar: (hour: string, count: number) => `${hour}: ${count} ${plural(count, 'envio', 'envios')}`,
    loadFailed: 'Não foi possível carregar as estatísticas.',
  },

  event: {
    title: 'Configuração do evento',
    coupleNames: 'Nomes do casal',
    coupleNamesHint: 'Aparecem no topo da página inicial.',
    eventDate: 'Data do evento',
    eventDateHint: 'Deixe em branco se ainda não tiver data.',
    maxFileSize: 'Tamanho máximo por arquivo (MB)',
    maxFileSizeHint: 'Arquivos maiores são recusados antes do envio. Até 10.240 MB (10 GB).',
    allowVideos: 'Aceitar vídeos',
    maxVideoDuration: 'Duração máxima de vídeo (segundos)',
    maxVideoDurationHint: (seconds: number) => `Hoje: ${formatClock(seconds)} (até 7.200 segundos, 2 horas).`,
    allowAudio: 'Aceitar recados de voz',
    maxAudioDuration: 'Duração máxima de recado de voz (segundos)',
    moderation: 'Moderação',
    moderationPost: 'Pós-moderação: aparece na galeria na hora; você pode recusar depois.',
    moderationPre: 'Pré-moderação: só aparece na galeria depois que você aprovar.',
    galleryMode: 'Galeria para os convidados',
    galleryModeLive: 'Aberta: as fotos aprovadas aparecem na hora.',
    galleryModeUploadOnly: 'Só envio: os convidados enviam, mas não veem a galeria (o telão continua mostrando, se você deixar).',
    galleryModeReveal: 'Revelação: fechada até o momento escolhido, depois aberta.',
    revealAt: 'Revelar em',
    revealAtHint: 'Data e hora no fuso deste aparelho. A galeria abre sozinha nesse momento.',
    galleryPin: 'PIN da galeria',
    galleryPinHint: 'De 4 a 8 números que os convidados digitam para ver a galeria. Em branco: sem PIN.',
    guestDownloads: 'Convidados podem baixar as fotos',
    guestDownloadsHint: 'Mostra um botão de baixar (sem os dados de localização) e o ZIP de todas as fotos.',
    maxUploadsPerGuest: 'Limite de envios por convidado',
    maxUploadsPerGuestHint: 'Como uma câmera descartável: de 1 a 1.000 por celular. Em branco: sem limite.',
    screenInClosedMode: 'O telão mostra as fotos mesmo com a galeria fechada',
    screenSound: 'O telão toca os recados de voz aprovados',
    screenSoundHint: 'Desligado, o telão mostra cada recado de voz como um cartão, sem som. Ligado, o navegador do telão só toca som depois que alguém toca (ou clica) uma vez na tela: faça isso ao montar o telão. Um telão já aberto segue como estava até ser recarregado.',
    language: 'Idioma do evento',
    languageHint: 'O telão, o cartão para imprimir e a página de quem usa um navegador em outro idioma falam este.',
    save: 'Salvar configuração',
    saving: 'Salvando…',
    saved: 'Configuração salva.',
    unchanged: 'Nada foi alterado.',
    fixErrors: 'Corrija os campos marcados.',
    loadFailed: 'Não foi possível carregar a configuração.',
    pinGuesses: {
      spending: (wrong: number, perHour: number) => `Alguém está tentando adivinhar o PIN da galeria: ${formatCount(wrong)} tentativas erradas na última hora, de no máximo ${formatCount(perHour)} por hora para o evento todo. Quem já abriu a galeria continua vendo.`,
      spent: (until: string, perHour: number) => `Alguém está tentando adivinhar o PIN da galeria: as ${formatCount(perHour)} tentativas da última hora acabaram. Até ${formatDateTime(until)}, quem ainda não abriu a galeria não consegue abrir, nem com o PIN certo. Quem já abriu continua vendo.`,
      suggestLonger: (digits: number) => `Use um PIN mais longo (${digits} números ou mais): cada número a mais deixa a adivinhação 10 vezes mais lenta. Depois, passe o novo PIN aos convidados.`,
    },
    errors: {
      coupleNames: 'Informe os nomes do casal (até 120 caracteres).',
      eventDate: 'Informe uma data válida ou deixe em branco.',
      maxFileSizeBytes: 'Informe um tamanho maior que zero e de no máximo 10.240 MB.',
      allowVideos: 'Valor inválido.',
      maxVideoDurationSec: 'Informe um número inteiro de segundos entre 1 e 7.200.',
      allowAudio: 'Valor inválido.',
      maxAudioDurationSec: 'Informe um número inteiro de segundos entre 1 e 600.',
      moderation: 'Escolha um modo de moderação.',
      galleryMode: 'Escolha como a galeria abre.',
      revealAt: 'Informe a data e a hora da revelação.',
      galleryPin: 'O PIN tem de 4 a 8 números.',
      maxUploadsPerGuest: 'Informe um número inteiro entre 1 e 1.000, ou deixe em branco.',
      language: 'Escolha um dos idiomas.',
      other: 'Valor inválido.',
    } as Record<string, string>,
  },

  moments: {
    title: 'Momentos do dia',
    hint: 'Capítulos da festa (cerimônia, brinde, festa): a galeria mostra cada um à parte, e o ZIP põe cada um numa pasta.',
    name: 'Nome do momento',
    add: 'Adicionar momento',
    empty: 'Nenhum momento ainda.',
    /** A moment's window, in this device's time zone: uploads taken inside it land in it. */
    starts: 'Começa',
    ends: 'Termina',
    windowInvalid: 'O fim do momento precisa ser depois do começo.',
  },
  challenges: {
    title: 'Desafios',
    hint: 'Propostas que aparecem para os convidados em /enviar, como vocês escreverem.',
    text: 'Texto do desafio',
    add: 'Adicionar desafio',
    empty: 'Nenhum desafio ainda.',
    active: 'Ativo',
  },
  orderedList: {
    up: (name: string) => `Subir “${name}”`,
    down: (name: string) => `Descer “${name}”`,
    remove: (name: string) => `Excluir “${name}”`,
    rename: 'Renomear',
    saved: 'Salvo.',
  },

  cover: {
    title: 'Capa',
    none: 'Nenhuma capa definida. Escolha uma foto aprovada na moderação com “Usar como capa”.',
    alt: 'Foto de capa do evento',
    clear: 'Remover capa',
  },

  share: {
    title: 'QR code e exportação',
    intro: 'O QR code leva os convidados direto para a página de envio.',
    png: 'QR code (PNG)',
    svg: 'QR code (SVG)',
    pdf: 'Cartão para imprimir (PDF)',
    pdfIn: {
      'pt-BR': 'Cartão em português (PDF)',
      'en': 'Cartão em inglês (PDF)',
      'es': 'Cartão em espanhol (PDF)',
    } as Record<Language, string>,
    pdfInHint: 'O QR code de cada cartão abre as páginas já no idioma dele.',
    exportZip: 'Baixar todas as fotos aprovadas (ZIP)',
    exportHint: 'Os originais aprovados, com uma lista de autores e mensagens.',
    previewTitle: 'Prévia',
    qrAlt: 'QR code que leva à página de envio',
    cardPreview: 'Prévia do cartão para imprimir',
    /** As the PDF card prints it (CARD_INSTRUCTION in server/utils/qr/card.ts). */
    cardInstruction: 'Aponte a câmera',
    /** The QR code encodes the address this page was opened on (server/utils/qr/target.ts). */
    addressLoopback: (address: string) => `Atenção: o QR code vai levar a ${address}, um endereço que só funciona neste computador. Os celulares dos convidados não vão abrir. Antes de imprimir ou baixar, abra este painel pelo endereço público do site.`,
    addressPrivate: (address: string) => `Atenção: o QR code vai levar a ${address}, um endereço da rede local. Só celulares conectados a esta mesma rede Wi-Fi vão abrir. Para os demais, abra este painel pelo endereço público do site antes de imprimir.`,
  },

  slideshow: {
    /** Which moment of the day the screen plays (`momento` in its address). */
    moment: 'Momento',
    allMoments: 'Todos os momentos',
    title: 'Telão (projetor, TV ou tablet)',
    intro: 'O telão mostra as fotos aprovadas, uma a uma, com o QR code para os convidados enviarem as suas. Abra este endereço no aparelho do salão; ele não é para os convidados.',
    photoSeconds: 'Segundos por foto',
    photoSecondsHint: (standard: number) => `De 2 a 60. Padrão: ${standard}.`,
    inviteEvery: 'Cartão “Envie suas fotos” a cada',
    inviteEveryHint: (standard: number) => `Número de fotos entre um cartão e outro; 0 para nunca. Padrão: ${standard}.`,
    address: 'Endereço do telão',
    addressHint: 'Leva a chave do telão: com ela, ele mostra as fotos mesmo com a galeria fechada ou com PIN. Não compartilhe.',
    rotateKey: 'Trocar a chave',
    rotateKeyConfirm: 'Trocar a chave? Os telões abertos com o endereço antigo deixam de mostrar a galeria fechada.',
    rotateKeyDone: 'Chave trocada. Abra o novo endereço no telão.',
    open: 'Abrir o telão',
    installTitle: 'Como deixar o telão ligado a noite toda',
    install: [
      { device: 'Computador no projetor:', how: 'abra o endereço no Chrome ou Chromium e tecle F para tela cheia; ou instale como app (ícone de instalar na barra de endereço) ou inicie com chromium --kiosk seguido do endereço. Desligue a suspensão do computador.' },
      { device: 'Smart TV:', how: 'abra o navegador da TV, digite o endereço e ative a tela cheia. Desligue o desligamento automático da TV.' },
      { device: 'Tablet:', how: 'abra o endereço no Chrome (Android: menu ⋮ › Instalar app) ou no Safari (iPad: Compartilhar › Adicionar à Tela de Início) e abra o telão pelo ícone criado: ele ocupa a tela toda. Deixe o tablet na tomada.' },
    ],
  },

  notifications: {
    title: 'Avisos de novidades',
    intro: 'Receba um aviso quando chegarem fotos, vídeos, recados e comentários: num servidor ntfy, num webhook seu ou neste aparelho. Os avisos vêm juntos, no máximo um por minuto.',
    url: 'Endereço que recebe os avisos',
    urlHint: 'Um tópico ntfy (https://ntfy.sh/seu-topico) ou o seu webhook. Em branco: nenhum aviso por endereço.',
    urlInvalid: 'Informe um endereço http(s) válido. Endereços link-local e de metadados de nuvem são recusados.',
    format: 'Formato',
    formats: { json: 'JSON assinado (webhook)', ntfy: 'ntfy (texto)' } as Record<NotifyFormat, string>,
    on: 'Avisar de',
    ons: { pending: 'Só o que espera aprovação', all: 'Tudo o que chega' } as Record<NotifyOn, string>,
    secret: 'Chave do webhook',
    secretHint: 'Cada aviso JSON leva X-Event-Media-Signature: sha256= e o HMAC do corpo com esta chave.',
    rotateSecret: 'Trocar a chave',
    secretRotated: 'Chave trocada. Passe a nova ao seu webhook.',
    save: 'Salvar avisos',
    saved: 'Avisos salvos.',
    test: 'Enviar um aviso de teste',
    testing: 'Enviando…',
    testAnswered: (status: number) => `O receptor respondeu ${status}.`,
    testFailed: (error: string) => `O aviso não chegou: ${error}`,
    lastStatus: 'Último aviso',
    lastStatusNone: 'Nenhum aviso enviado ainda.',
    lastStatusLine: (status: number | null, when: string, attempt: number) => `${status === null ? 'sem resposta' : `resposta ${status}`}, ${when}${attempt > 1 ? ` (tentativa ${attempt})` : ''}`,
    device: 'Avisar neste aparelho',
    deviceHint: 'Uma notificação do navegador a cada lote de novidades, mesmo com o painel fechado.',
    deviceUnsupported: 'Este navegador não recebe avisos. No iPhone, adicione o painel à Tela de Início e abra por lá.',
    deviceDenied: 'As notificações estão bloqueadas para este site nas configurações do navegador.',
    deviceFailed: 'Não foi possível ligar os avisos neste aparelho.',
    /** The browser tab's title while items wait: "(3) Moderação". */
    tabTitle: (pending: number, section: string) => (pending > 0 ? `(${pending}) ${section}` : section),
    // What the couple's phone shows (ntfy, Web Push), in the event's language.
    pushTitle: (coupleNames: string) => (coupleNames ? `${coupleNames}: novidades` : 'Novidades do evento'),
    kinds: {
      photo: (count: number) => `${count} ${plural(count, 'nova foto', 'novas fotos')}`,
      video: (count: number) => `${count} ${plural(count, 'novo vídeo', 'novos vídeos')}`,
      audio: (count: number) => `${count} ${plural(count, 'novo recado de voz', 'novos recados de voz')}`,
      message: (count: number) => `${count} ${plural(count, 'novo recado', 'novos recados')}`,
      comment: (count: number) => `${count} ${plural(count, 'novo comentário', 'novos comentários')}`,
    } as Record<NotifyKind, (count: number) => string>,
    and: 'e',
    waiting: (count: number) => plural(count, 'espera aprovação', 'esperam aprovação'),
    arrived: (count: number) => plural(count, 'chegou', 'chegaram'),
    testBody: 'Aviso de teste: os avisos do evento chegam aqui.',
  },

  errors: {
    ...failures,
    /** The words for a failed call: no answer, a known `data.code`, or something else. */
    describe(failure: { status: number | null, code: string | null }): string {
      if (failure.status === null) return failures.network
      return (failure.code ? failures.byCode[failure.code as ErrorCode] : undefined) ?? failures.generic
    },
    actionFailed: (action: string, reason: string) => `Não foi possível ${action}: ${reason}`,
    actions: {
      approve: 'aprovar',
      reject: 'recusar',
      delete: 'excluir',
      setCover: 'definir a capa',
      clearCover: 'remover a capa',
      edit: 'salvar a edição',
      bulk: 'aplicar a ação em lote',
      saveEvent: 'salvar a configuração',
      logout: 'sair',
    },
  },
}

/** What every language's admin file must hold: these keys, these parameters, texts. */
export type AdminMessages = TextsOf<typeof adminPtBR>
