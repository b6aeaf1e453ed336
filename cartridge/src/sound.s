; Sound effects: short note lists on pulse 1 (moves), pulse 2 (clears, game over) and noise
; (locks). Each channel plays one effect at a time; a new one replaces it.

.include "defs.inc"

.segment "CODE"

sound_init:
    lda #%00001011          ; pulse 1, pulse 2, noise
    sta APU_STATUS
    lda #$30                ; constant volume 0
    sta $4000
    sta $4004
    sta $400C
    lda #$08                ; sweep off, never muting
    sta $4001
    sta $4005
    lda #0
    sta sfx_timer
    sta sfx_timer + 1
    sta sfx_timer + 2
    rts

; Starts effect A on its channel.
sfx_play:
    tay
    ldx effect_channel, y
    sta sfx_id, x
    lda #0
    sta sfx_step, x
    lda #1
    sta sfx_timer, x
    rts

; Once a frame: advances every channel's effect.
sfx_update:
    ldx #2
@channel:
    lda sfx_timer, x
    beq @next
    dec sfx_timer, x
    bne @next
    ldy sfx_id, x
    lda effect_notes_lo, y
    sta sfx_ptr
    lda effect_notes_hi, y
    sta sfx_ptr + 1
    lda sfx_step, x
    asl a
    tay
    iny
    lda (sfx_ptr), y
    cmp #$FF
    beq @silence
    sta tmp1                ; period high (noise: unused)
    dey
    lda (sfx_ptr), y
    sta tmp0                ; period low (noise: period index)
    inc sfx_step, x
    ldy sfx_id, x
    lda effect_frames, y
    sta sfx_timer, x
    lda effect_volume, y
    ldy channel_base, x
    sta $4000, y
    lda tmp0
    sta $4002, y
    lda tmp1
    ora #$08
    sta $4003, y
    jmp @next
@silence:
    ldy channel_base, x
    lda #$30
    sta $4000, y
@next:
    dex
    bpl @channel
    rts

.segment "RODATA"

channel_base:
    .byte $00, $04, $0C

effect_channel:
    .byte 0, 0, 2, 1, 1
effect_frames:
    .byte 2, 2, 3, 4, 10
effect_volume:                  ; duty, halt, constant volume, volume
    .byte $B3, $B3, $36, $76, $76
effect_notes_lo:
    .byte <notes_move, <notes_rotate, <notes_lock, <notes_clear, <notes_gameover
effect_notes_hi:
    .byte >notes_move, >notes_rotate, >notes_lock, >notes_clear, >notes_gameover

; Pulse periods (low, high); noise period index in the low byte. $FF high ends.
notes_move:
    .byte $A0, $00, 0, $FF
notes_rotate:
    .byte $70, $00, $58, $00, 0, $FF
notes_lock:
    .byte $0C, $00, $0E, $00, 0, $FF
notes_clear:
    .byte <213, >213, <169, >169, <142, >142, <106, >106, 0, $FF
notes_gameover:
    .byte <284, >284, <338, >338, <426, >426, <570, >570, 0, $FF
