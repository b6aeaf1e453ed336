; The column generator: a 16-bit linear congruential generator kept at $44-$45,
; S <- 25173 * S + 13849 (mod 65536), one step per jewel. A jewel's colour is bits 8-10
; of the new state, 0 read as 1 and 7 as 5. Columns are made bottom jewel first.
;
; Reset seeds it from sums of RAM pages (see main.s); nothing else advances it, so a
; test may write $44-$45 on the title screen to choose a game.

.include "defs.inc"

MULTIPLIER = 25173
INCREMENT  = 13849

.segment "CODE"

; A = the next jewel's colour (1-6). Uses X.
new_jewel:
    lda rng_lo
    sta mul_a
    lda rng_hi
    sta mul_a + 1
    lda #0
    sta prod
    sta prod + 1
    lda #<MULTIPLIER
    sta tmp0
    lda #>MULTIPLIER
    sta tmp1
    ldx #16
@bit:
    lsr tmp1
    ror tmp0
    bcc :+
    clc
    lda prod
    adc mul_a
    sta prod
    lda prod + 1
    adc mul_a + 1
    sta prod + 1
:   asl mul_a
    rol mul_a + 1
    dex
    bne @bit
    clc
    lda prod
    adc #<INCREMENT
    sta rng_lo
    lda prod + 1
    adc #>INCREMENT
    sta rng_hi
    and #7
    tax
    lda colour_of, x
    rts

colour_of:
    .byte 1, 1, 2, 3, 4, 5, 6, 5

; A new next column, bottom jewel first.
new_next:
    jsr new_jewel
    sta next_col + 2
    jsr new_jewel
    sta next_col + 1
    jsr new_jewel
    sta next_col
    rts

; A new game's first two columns: the current one, then the next.
first_columns:
    jsr new_jewel
    sta cur_col + 2
    jsr new_jewel
    sta cur_col + 1
    jsr new_jewel
    sta cur_col
    jmp new_next

; The next column becomes the current one.
promote:
    lda next_col
    sta cur_col
    lda next_col + 1
    sta cur_col + 1
    lda next_col + 2
    sta cur_col + 2
    rts
