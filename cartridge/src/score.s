; Score, jewel counter and level: one decimal digit per byte, lowest first, rolling over
; after the last digit.
;
; A match step scores 10 x jewels x chain step x (level index + 1).

.include "defs.inc"

.segment "CODE"

; Counts the jewels of a match step (removed, at chain step `chain`) into the jewel counter
; and the score, and towards the next wild column.
add_points:
    lda removed
    clc
    adc since_wild
    bcc :+
    lda #$FF
:   sta since_wild
    ; Jewel counter.
    lda removed
    sta mcand
    lda #0
    sta mcand + 1
    jsr bin_to_dec
    lda #0
    jsr load_addend
    ldx #jewels
    lda #JEWEL_DIGITS
    jsr add_counter
    ; Score: jewels x chain x (level index + 1), in tens.
    lda removed
    sta mcand
    lda #0
    sta mcand + 1
    lda chain
    sta mplier
    jsr multiply
    lda product
    sta mcand
    lda product + 1
    sta mcand + 1
    ldx level_index
    inx
    stx mplier
    jsr multiply
    lda product
    sta mcand
    lda product + 1
    sta mcand + 1
    jsr bin_to_dec
    lda #1                  ; tens
    jsr load_addend
    ldx #score
    lda #SCORE_DIGITS
    jsr add_counter
    lda #1
    sta hud_dirty
    rts

; The level goes up: displayed level + 1, index + 1 up to the end of the speed table.
level_up:
    lda #0
    ldx #7
:   sta add_buf, x
    dex
    bpl :-
    lda #1
    sta add_buf
    ldx #level
    lda #LEVEL_DIGITS
    jsr add_counter
    lda level_index
    cmp #MAX_LEVEL
    bcs :+
    inc level_index
:   ldx level_index
    lda speed_table, x
    sta fall_speed
    lda #1
    sta hud_dirty
    rts

; add_buf = dec_out shifted up by A digits.
load_addend:
    tay
    lda #0
    ldx #7
:   sta add_buf, x
    dex
    bpl :-
    ldx #0
:   lda dec_out, x
    sta add_buf, y
    iny
    inx
    cpx #5
    bcs :+
    cpy #8
    bcc :-
:   rts

; Adds add_buf to the A-digit counter at zero page address X.
add_counter:
    sta add_len
    ldy #0
    clc
@digit:
    lda $00, x
    adc add_buf, y
    cmp #10
    bcc :+
    sbc #10                 ; carry stays set: one to carry
:   sta $00, x
    inx
    iny
    dec add_len             ; leaves carry alone
    bne @digit
    rts

; product = mcand (16 bits) x mplier (8 bits), kept to 16 bits.
multiply:
    lda #0
    sta product
    sta product + 1
    ldx #8
@bit:
    lsr mplier
    bcc :+
    clc
    lda product
    adc mcand
    sta product
    lda product + 1
    adc mcand + 1
    sta product + 1
:   asl mcand
    rol mcand + 1
    dex
    bne @bit
    rts

; dec_out = the five decimal digits of mcand, lowest first.
bin_to_dec:
    ldx #4
@power:
    lda #0
    sta dec_out, x
@subtract:
    lda mcand
    sec
    sbc powers_lo, x
    tay
    lda mcand + 1
    sbc powers_hi, x
    bcc @next
    sta mcand + 1
    sty mcand
    inc dec_out, x
    bne @subtract
@next:
    dex
    bne @power
    lda mcand
    sta dec_out
    rts

powers_lo:
    .byte <1, <10, <100, <1000, <10000
powers_hi:
    .byte >1, >10, >100, >1000, >10000
