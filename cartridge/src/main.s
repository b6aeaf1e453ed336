; Reset, the NMI handler and the main loop.
;
; The main loop runs the game once per frame right after the NMI, then hands the NMI a
; finished VRAM buffer; the NMI only copies that buffer to the PPU during vblank.

.include "defs.inc"

.segment "HEADER"
    .byte "NES", $1A
    .byte 1                 ; 16 KiB PRG
    .byte 1                 ; 8 KiB CHR
    .byte $01               ; mapper 0, vertical mirroring
    .byte $00
    .res 8, 0

.segment "RODATA"
; The plug-in recognises this cartridge by this text in PRG.
signature:
    .byte "JEWELBOT OPEN CARTRIDGE"

.segment "CODE"

reset:
    sei
    cld
    ldx #$40
    stx JOY2_FRAME          ; no APU frame IRQ
    ldx #$FF
    txs
    inx
    stx PPUCTRL
    stx PPUMASK
    stx DMC_FREQ
    bit PPUSTATUS
@vblank1:
    bit PPUSTATUS
    bpl @vblank1

    ; Clear RAM, except the seed: a reset keeps the generator going.
    txa
@clear:
    cpx #seed
    beq :+
    cpx #seed + 1
    beq :+
    sta $00, x
:   sta $0100, x
    sta $0200, x
    sta $0300, x
    sta $0400, x
    sta $0500, x
    sta $0600, x
    sta $0700, x
    inx
    bne @clear

@vblank2:
    bit PPUSTATUS
    bpl @vblank2

    jsr sound_init
    lda #%10000000          ; NMI on, background and sprites from table 0
    sta ppu_ctrl
    sta PPUCTRL
    lda #%00001010          ; background on, left column too
    sta ppu_mask
    jsr draw_title

main_loop:
    jsr wait_frame
    jsr read_pad
    jsr run_state
    jsr sfx_update
    ldx buf_len
    lda #0
    sta vram_buf, x
    lda #1
    sta buf_ready
    jmp main_loop

; Waits for the next NMI; the VRAM buffer is then free to fill again.
wait_frame:
    lda nmi_count
:   cmp nmi_count
    beq :-
    lda #0
    sta buf_len
    sta buf_ready
    rts

; Turns rendering off at the next vblank so the main loop may write the PPU directly.
ppu_off:
    jsr wait_frame
    lda #0
    sta render_on
    sta PPUMASK
    rts

; Rendering comes back at the next vblank (the NMI writes the mask and scroll).
ppu_on:
    lda #0
    sta buf_len
    lda #1
    sta render_on
    rts

nmi:
    pha
    txa
    pha
    tya
    pha
    lda render_on
    beq @done
    lda buf_ready
    beq @scroll
    jsr flush_buffer
    lda #0
    sta buf_ready
@scroll:
    lda ppu_ctrl
    sta PPUCTRL
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda ppu_mask
    sta PPUMASK
@done:
    inc nmi_count
    pla
    tay
    pla
    tax
    pla
irq:
    rti

.segment "VECTORS"
    .word nmi, reset, irq
