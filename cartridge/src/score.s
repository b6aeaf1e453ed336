; Score, jewel counter, displayed level and the speed table. The counters are 8 decimal
; digits, one per byte, lowest first, and roll over after the last digit.
;
; A match step s (1 for the first step of a resolution) that removes n cells scores
;   b + V * 2^(s-1) * (n + (n-3)(n-2)/2)
; with V = 100 + 10 * combo ($A0, as it stood when the column locked) and
; b = min(max(12 - y, 0), 9), y the locked column's bottom row ($57).

.include "defs.inc"

.segment "CODE"

; The score of the step that just ended (removed cells at step `step`).
add_score:
    ; T = n + (n-3)(n-2)/2
    lda removed
    sec
    sbc #3
    sta mul_a
    lda #0
    sta mul_a + 1
    lda removed
    sec
    sbc #2
    sta mul_b
    jsr multiply
    lsr prod + 1
    ror prod
    lda prod
    clc
    adc removed
    sta mul_a
    lda prod + 1
    adc #0
    sta mul_a + 1
    ; x V
    lda combo
    asl a
    sta tmp0
    asl a
    asl a
    adc tmp0                ; 10 * combo (combo <= 9: no carry)
    adc #100
    sta mul_b
    jsr multiply
    ; x 2^(s-1)
    ldx step
@double:
    dex
    beq :+
    asl prod
    rol prod + 1
    rol prod + 2
    rol prod + 3
    jmp @double
:   ; + b
    lda #12
    sec
    sbc col_y
    bcs :+
    lda #0
:   cmp #10
    bcc :+
    lda #9
:   clc
    adc prod
    sta prod
    bcc :+
    inc prod + 1
    bne :+
    inc prod + 2
    bne :+
    inc prod + 3
:   jsr prod_to_dec
    ldx #score
    jsr add_counter
    lda #1
    sta hud_dirty
    rts

; The cells removed by a step go to the jewel counter and towards the next wild column.
add_jewels:
    lda removed
    clc
    adc removed_all
    bcc :+
    lda #$FF
:   sta removed_all
    lda removed
    jsr bin8_to_dec
    ldx #jewels
    jsr add_counter
    lda #1
    sta hud_dirty
    rts

; The displayed level + 1.
add_level:
    lda #1
    jsr bin8_to_dec
    ldx #level
    jsr add_counter
    lda #1
    sta hud_dirty
    rts

; add_buf = the decimal digits of A.
bin8_to_dec:
    sta prod
    lda #0
    sta prod + 1
    sta prod + 2
    sta prod + 3
    ; fall through

; add_buf = prod (32 bits) mod 100,000,000 in decimal digits, lowest first.
prod_to_dec:
    ldx #8 * 4
:   jsr take_power
    bcs :-
    ldy #7
@digit:
    tya
    asl a
    asl a
    tax
    lda #0
    sta add_buf, y
:   jsr take_power
    bcc :+
    lda add_buf, y
    adc #0                  ; carry is set: + 1
    sta add_buf, y
    bcc :-                  ; always
:   dey
    bpl @digit
    rts

; Carry set (and prod reduced) when prod >= the power of ten at X / 4. Keeps X and Y.
take_power:
    sec
    lda prod
    sbc powers, x
    sta addend
    lda prod + 1
    sbc powers + 1, x
    sta addend + 1
    lda prod + 2
    sbc powers + 2, x
    sta addend + 2
    lda prod + 3
    sbc powers + 3, x
    bcc :+
    sta prod + 3
    lda addend + 2
    sta prod + 2
    lda addend + 1
    sta prod + 1
    lda addend
    sta prod
:   rts

powers:
    .dword 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000

; prod (32 bits) = mul_a (16 bits) x mul_b (8 bits).
multiply:
    lda #0
    sta prod
    sta prod + 1
    sta prod + 2
    sta prod + 3
    sta addend + 2
    lda mul_a
    sta addend
    lda mul_a + 1
    sta addend + 1
    ldx #8
@bit:
    lsr mul_b
    bcc :+
    clc
    lda prod
    adc addend
    sta prod
    lda prod + 1
    adc addend + 1
    sta prod + 1
    lda prod + 2
    adc addend + 2
    sta prod + 2
    bcc :+
    inc prod + 3
:   asl addend
    rol addend + 1
    rol addend + 2
    dex
    bne @bit
    rts

; Adds add_buf to the 8-digit counter at zero page address X; the carry out of the last
; digit is dropped.
add_counter:
    lda #DIGITS
    sta tmp0
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
    dec tmp0                ; leaves carry alone
    bne @digit
    rts

; A = frames per row at internal level X (uses A only).
speed_of:
    cpx #48
    bcs :+
    lda speed_table, x
    rts
:   lda #8
    rts

.segment "RODATA"

; Frames per row at internal levels 0-47; from 48 on, 8.
speed_table:
    .byte 63, 52, 41, 32, 29, 25, 23, 23, 21, 21, 21, 20, 19, 18, 18, 18
    .byte 17, 17, 17, 18, 16, 16, 16, 17, 13, 13, 13, 16, 12, 12, 12, 13
    .byte 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11
