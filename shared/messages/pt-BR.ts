/**
 * Every text a guest or the venue screen sees, in Brazilian Portuguese. A second language is a
 * second file of the same shape (`Messages`); components never hold a sentence of their own.
 */
import type { MediaKind } from '#shared/enums'
import type { TextsOf } from '#shared/messages/shape'
import { formatBytes, formatBytesOf, formatDuration, formatEventDate, plural } from '#shared/messages/format.pt-BR'

export const ptBR = {
  locale: 'pt-BR',
  format: { bytes: formatBytes, duration: formatDuration, eventDate: formatEventDate },
  siteTitle: 'Fotos do casamento',
  language: { label: 'Idioma' },
  home: {
    title: (names: string) => (names ? `${names}` : 'Nosso casamento'),
    greeting: 'Obrigado por fazer parte deste dia!',
    sendPhotos: 'Enviar fotos e vídeos',
    seeGallery: 'Ver a galeria',
    coverAlt: (names: string) => (names ? `Foto de capa de ${names}` : 'Foto de capa'),
  },
  upload: {
    title: 'Enviar fotos e vídeos',
    back: 'Voltar ao início',
    intro: 'Escolha quantas fotos e vídeos quiser. Eles sobem um por um, mesmo se a internet cair.',
    limits: (maxBytes: number, allowVideos: boolean, maxVideoSec: number) => allowVideos
      ? `Até ${formatBytes(maxBytes)} por arquivo; vídeos de até ${formatDuration(maxVideoSec)}.`
      : `Até ${formatBytes(maxBytes)} por arquivo. Nesta festa, só fotos (sem vídeos).`,
    pick: (allowVideos: boolean) => (allowVideos ? 'Escolher fotos e vídeos' : 'Escolher fotos'),
    pickMore: 'Escolher mais',
    checking: 'Conferindo os arquivos…',
    author: 'Seu nome',
    authorHint: 'Opcional. Fica guardado neste celular para a próxima vez.',
    message: 'Mensagem para os noivos',
    messageHint: 'Opcional.',
    send: (count: number) => count > 0
      ? `Enviar ${count} ${plural(count, 'arquivo', 'arquivos')}`
      : 'Enviar',
    sending: 'Enviando…',
    listLabel: 'Arquivos escolhidos',
    refusedTitle: 'Estes arquivos não podem ser enviados',
    dismiss: 'Entendi',
    success: 'Pronto! Tudo foi enviado.',
    successCount: (count: number) => `${count} ${plural(count, 'arquivo enviado', 'arquivos enviados')}. Muito obrigado!`,
    afterApproval: 'As fotos aparecem na galeria depois que os noivos aprovarem.',
    seeGallery: 'Ver a galeria',
    sendMore: 'Enviar mais',
    // Files under 50 MiB go in one PUT and start again from zero: say what happens, not "where it stopped".
    resumed: 'Retomando seus envios.',
    storageFailed: 'Este navegador não deixou guardar os arquivos; mantenha esta página aberta até o fim do envio.',
  },
  summary: {
    label: 'Andamento do envio',
    sending: (position: number, total: number) => `Enviando ${position} de ${total}`,
    paused: 'Sem conexão · pausado',
    done: 'Tudo enviado',
    failed: (failed: number) => `${failed} ${plural(failed, 'arquivo não foi enviado', 'arquivos não foram enviados')}`,
    offline: 'Sem conexão',
    bytes: formatBytesOf,
    files: (done: number, total: number) => `${done} de ${total} ${plural(total, 'arquivo', 'arquivos')}`,
    pausedHint: 'O envio continua sozinho quando a internet voltar.',
    failedHint: 'Veja abaixo o que aconteceu com cada um.',
  },
  item: {
    state: {
      queued: 'Na fila',
      waiting: 'Pronto para enviar',
      uploading: 'Enviando',
      paused: 'Pausado, sem conexão',
      retrying: 'Tentando de novo…',
      finishing: 'Finalizando…',
      done: 'Enviado',
      duplicate: 'Já enviada',
      error: 'Não foi enviado',
    },
    remove: (name: string) => `Remover ${name}`,
    removeShort: 'Remover',
    undoExpired: 'Já passou o tempo de remover. Peça aos noivos, se precisar.',
    undoFailed: 'Não deu para remover agora. Tente de novo.',
    cancel: (name: string) => `Cancelar ${name}`,
    retry: (name: string) => `Tentar enviar ${name} de novo`,
    cancelShort: 'Cancelar',
    retryShort: 'Tentar de novo',
    progress: (name: string) => `Progresso de ${name}`,
    video: 'Vídeo',
    photo: 'Foto',
  },
  refusal: {
    tooLarge: (size: number, limit: number) => `É grande demais (${formatBytes(size)}). O limite é ${formatBytes(limit)} por arquivo.`,
    empty: 'O arquivo está vazio.',
    unsupported: 'Este tipo de arquivo não é aceito. Envie fotos (JPEG, PNG, HEIC…) ou vídeos (MP4, MOV, WebM).',
    videosDisabled: 'Nesta festa não estamos recebendo vídeos, só fotos.',
    tooLong: (duration: number, limit: number) => `O vídeo é longo demais (${formatDuration(duration)}). O limite é ${formatDuration(limit)}.`,
    tooLongNoDuration: (limit: number) => `O vídeo é longo demais. O limite é ${formatDuration(limit)}.`,
    durationUnreadable: 'Não conseguimos ler a duração deste vídeo. Tente gravá-lo de novo ou enviar pelo celular que o gravou.',
    contentMismatch: 'O arquivo não parece ser a foto ou o vídeo que diz ser.',
    rateLimited: 'Muitos envios ao mesmo tempo. Tentamos de novo em instantes.',
    failed: 'O envio falhou. Toque em "Tentar de novo".',
    gone: 'Este arquivo não está mais neste aparelho. Escolha-o de novo.',
  },
  gallery: {
    title: 'Galeria',
    back: 'Início',
    send: 'Enviar fotos',
    empty: 'Ainda não há fotos aprovadas. Que tal enviar as primeiras?',
    loadError: 'Não conseguimos carregar a galeria. Verifique a conexão e tente de novo.',
    tryAgain: 'Tentar de novo',
    offline: 'Sem conexão: estas são as fotos que já tínhamos. As novas aparecem quando a internet voltar.',
    loadMore: 'Carregar mais',
    loading: 'Carregando…',
    newItems: (count: number) => `${count} ${plural(count, 'novidade', 'novidades')}`,
    open: (index: number, author: string, kind: MediaKind) =>
      `${kind === 'video' ? 'Vídeo' : 'Foto'} ${index}${author ? `, de ${author}` : ''}`,
    photoAlt: (author: string) => (author ? `Foto enviada por ${author}` : 'Foto enviada por um convidado'),
    videoLabel: (author: string) => (author ? `Vídeo enviado por ${author}` : 'Vídeo enviado por um convidado'),
    videoWithoutFrame: 'Vídeo',
  },
  viewer: {
    label: 'Foto ou vídeo em tela cheia',
    close: 'Fechar',
    previous: 'Anterior',
    next: 'Próxima',
    position: (index: number, total: number) => `${index} de ${total}`,
    anonymous: 'Convidado',
    unmute: 'Ativar som',
    mute: 'Tirar som',
  },
  slideshow: {
    label: 'Telão de fotos',
    /** Under the installed venue screen's icon (about 12 characters). */
    screenShortName: 'Telão',
    /** Under the installed app's icon while the couple is not named yet. */
    appShortName: 'Fotos',
    waiting: 'Aguardando as primeiras fotos…',
    scan: 'Envie suas fotos',
    inviteTitle: 'Envie suas fotos',
    inviteHow: 'Aponte a câmera do celular para o código',
    qrAlt: 'Código QR para enviar fotos',
    fullscreen: 'Tela cheia',
    offline: 'Sem conexão: repetindo as fotos que já temos.',
  },
  errors: {
    notFound: 'Página não encontrada.',
    generic: 'Algo deu errado.',
    home: 'Voltar ao início',
  },
}

/** What every language's guest file must hold: these keys, these parameters, texts. */
export type Messages = TextsOf<typeof ptBR>
