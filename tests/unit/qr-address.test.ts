import { describe, expect, it } from 'vitest'
import { unreachableKind } from '../../shared/qr-address'

describe('which QR addresses guests\' phones cannot open', () => {
  it('loopback: this computer only', () => {
    for (const url of ['http://localhost:3000/enviar', 'http://LOCALHOST/enviar', 'http://app.localhost/enviar', 'http://127.0.0.1:3000/enviar', 'http://127.1.2.3/enviar', 'http://0.0.0.0:3000/enviar', 'http://[::1]:3000/enviar', 'http://[::ffff:127.0.0.1]/enviar', 'http://localhost./enviar']) {
      expect(unreachableKind(url), url).toBe('loopback')
    }
  })

  it('private: only phones on the same network', () => {
    for (const url of ['http://192.168.0.10:3000/enviar', 'http://10.1.2.3/enviar', 'http://172.16.0.1/enviar', 'http://172.31.255.255/enviar', 'http://169.254.10.10/enviar', 'http://100.64.0.1/enviar', 'http://[fd12:3456::1]/enviar', 'http://[fe80::1]/enviar', 'http://[::ffff:192.168.1.2]/enviar', 'http://festa.local/enviar', 'http://notebook.lan/enviar', 'http://servidor.home.arpa/enviar', 'http://raspberrypi:3000/enviar']) {
      expect(unreachableKind(url), url).toBe('private')
    }
  })

  it('public: anything else', () => {
    for (const url of ['https://fotos.anaebruno.com.br/enviar', 'http://172.32.0.1/enviar', 'http://172.15.0.1/enviar', 'http://8.8.8.8/enviar', 'http://[2001:db8::1]/enviar', 'http://192.169.0.1/enviar', 'https://localhost.example.com/enviar', 'not a url']) {
      expect(unreachableKind(url), url).toBeNull()
    }
  })
})
