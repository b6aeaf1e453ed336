; Reset, the NMI handler and the main loop.
;
; The NMI does the per-frame work that does not depend on the game's state: it sends the
; VRAM buffer the main loop prepared, reads the controller, toggles the pause on Start and
; runs the frame counters and level requests. The main loop then runs the current state's
; frame once, right after the NMI, and prepares the next VRAM buffer.

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
; Right after it, for recorders: how many events, then the CPU address of the first
; instruction of each event's routine, in this order.
event_table:
    .byte 8
    .word reset, game_setup, spawn, lock, match_check, wild_generated, wild_landed, game_over

.segment "CODE"

; Pages of 256 five-cycle loops (1,280 cycles each) a cold start waits (see `reset`).
COLD_WAIT_PAGES = 51

; The reset: power-on, and the end of a game. Nothing here may use the stack before the
; generator's seed is taken, since the seed is a sum over RAM pages that include the stack.
reset:
    sei
    cld
    ldx #$FF
    txs
    lda #0
    sta PPUCTRL             ; no NMI
    sta PPUMASK
    sta DMC_FREQ
    sta render_on           ; the NMI leaves the PPU alone
    sta nmi_active          ; and only counts frames
    lda #$40
    sta JOY2_FRAME          ; no APU frame IRQ

    ; The seed: $AD plus the bytes of pages $0100 and $0300 in the low byte, of pages $0200
    ; and $0400 in the high byte. All-zero RAM gives $ADAD. It is kept aside (outside the
    ; RAM that is cleared) until RAM is cleared.
    lda #$AD
    ldx #0
:   clc
    adc $0100, x
    clc
    adc $0300, x
    inx
    bne :-
    sta seed_kept
    lda #$AD
:   clc
    adc $0200, x
    clc
    adc $0400, x
    inx
    bne :-
    sta seed_kept + 1

    ; A cold start waits out the PPU's warm-up by counting CPU cycles, not vblanks: emulators
    ; disagree on the first vblanks after power-on (tetanes-core flags one at the start of
    ; frame 2, FCEUX none before frame 3, and a PPU that ignores writes for about a frame
    ; would drop an early NMI enable), while every one counts cycles alike. The wait ends
    ; near the middle of frame 3 in all of them (about 74,000 cycles after power-on; frame 3
    ; spans 57,200-86,900 in tetanes-core and 59,600-89,300 in FCEUX), so the first NMI
    ; comes at the start of frame 4 and the seed is taken there, as the real game takes it.
    lda warm_sig
    cmp #'J'
    bne @cold
    lda warm_sig + 1
    cmp #'B'
    beq @warm
@cold:
    ldy #COLD_WAIT_PAGES    ; 51 x 1,280 cycles: about 65,300
    ldx #0
:   dex
    bne :-
    dey
    bne :-
    lda #0
    sta nmi_count
    lda #1                  ; one frame to the seed
    bne @wait
@warm:
    lda #0
    sta nmi_count
    lda #2                  ; two frames to the seed
@wait:
    bit PPUSTATUS           ; no NMI at once for a vblank already flagged
    ldx #%10000000          ; NMIs from now on: frames are counted from here
    stx PPUCTRL
:   cmp nmi_count
    bne :-

    ; Clear RAM except the high score and the seed, which goes in place.
    lda #0
    tax
@clear:
    sta $00, x
    sta $0100, x
    sta $0200, x
    sta $0300, x
    sta $0400, x
    sta $0500, x
    sta $0600, x
    cpx #<high_score
    bcs :+
    sta $0700, x
:   inx
    bne @clear
    lda seed_kept
    sta rng_lo
    lda seed_kept + 1
    sta rng_hi
    lda warm_sig
    cmp #'J'
    beq :+
    ldx #DIGITS - 1         ; a cold start has no high score yet
    lda #0
@top:
    sta high_score, x
    dex
    bpl @top
:   lda #'J'
    sta warm_sig
    lda #'B'
    sta warm_sig + 1
    ldx #$FF                ; the stack starts over (cleared above)
    txs
    lda #%10000001          ; NMI on, tiles from table 0, name table 1 as the scroll base
    sta ppu_ctrl

    jsr sound_init
    lda #%00001010          ; background on, left column too
    sta ppu_mask
    ; The title screen is drawn in the next frame and shown in the one after, two frames
    ; after the seed. Each part of the work ends well inside its frame, so that RAM at every
    ; frame's end is the same whichever emulator's frame ends a few cycles earlier.
    lda #1
    jsr wait_nmi_count
    jsr draw_title_screen   ; rendering is off
    lda #2
    jsr wait_nmi_count
    lda #$83
    sta on_title
    lda #1
    sta anim
    lda #0
    sta glyph
    jsr draw_glyph
    lda #ST_TITLE
    sta state
    lda #1
    sta render_on
    sta nmi_active
    jmp main_loop

main_loop:
    jsr wait_frame
    jsr run_state
    lda render_on
    beq :+
    lda state
    cmp #ST_CONTINUE        ; the logo screen has no playfield to draw
    beq :+
    jsr render_play
:   jsr sfx_update
    ldx buf_len
    lda #0
    sta vram_buf, x
    lda #1
    sta buf_ready
    jmp main_loop

; Waits until nmi_count = A. The loop keeps the flags as they are, so an NMI pushes the same
; status byte whichever of its instructions it interrupts.
wait_nmi_count:
:   cmp nmi_count
    bne :-
    rts

; Waits for the next NMI; the VRAM buffer is then free to fill again.
wait_frame:
    lda nmi_count
:   cmp nmi_count
    beq :-
    lda #0
    sta buf_len
    sta buf_ready
    rts

nmi:
    pha
    txa
    pha
    tya
    pha
    inc nmi_count
    lda render_on
    beq @pad
    lda buf_ready
    beq @scroll
    jsr flush_buffer
    lda #0
    sta buf_ready
@scroll:
    lda ppu_ctrl
    sta PPUCTRL
    lda #SCROLL_X
    sta PPUSCROLL
    lda #0
    sta PPUSCROLL
    lda ppu_mask
    sta PPUMASK
@pad:
    lda nmi_active
    beq @done
    jsr read_pad
    ; Start toggles the pause, except on the title screen.
    lda pressed
    and #BTN_START
    beq :+
    lda title_active
    bne :+
    lda paused
    eor #$FF
    sta paused
:   inc frames
    inc fall_timer
    bne :+
    dec fall_timer          ; stays at 255
:   ; Auto-repeat counters: +1 while the button is held, 1 otherwise.
    ldx #1
    lda held_left
    beq :+
    ldx rpt_left
    inx
:   stx rpt_left
    ldx #1
    lda held_right
    beq :+
    ldx rpt_right
    inx
:   stx rpt_right
    ; A level request: the internal level goes up and the speed follows it.
    lda level_req
    beq @done
    lda #0
    sta level_req
    inc level_index
    ldx level_index
    jsr speed_of
    sta fall_speed
@done:
    pla
    tay
    pla
    tax
    pla
irq:
    rti

; Controller 1: pad = held (A in bit 7 ... Right in bit 0), pressed = new this frame, and one
; byte per button at $33-$3A.
read_pad:
    lda pad
    sta nmi_tmp
    lda #1
    sta JOY1
    sta pad                 ; the 1 shifts out after eight reads and ends the loop
    lsr a
    sta JOY1
:   lda JOY1
    and #%00000011          ; standard pad or Famicom expansion pad
    cmp #1                  ; carry = button
    rol pad
    bcc :-
    lda nmi_tmp
    eor #$FF
    and pad
    sta pressed
    ldx #7
    lda #BTN_RIGHT
    sta nmi_tmp
:   lda pad
    and nmi_tmp
    sta held_a, x
    asl nmi_tmp
    dex
    bpl :-
    rts

.segment "VECTORS"
    .word nmi, reset, irq
