; The column generator: a 16-bit Galois LFSR kept in the seed bytes ($F0-$F1).
;
; Tests write the seed on the title screen for reproducible games; a zero seed is replaced
; by a fixed default when Start begins a game (an LFSR never leaves zero).

.include "defs.inc"

.segment "CODE"

; A = eight fresh bits.
rand_byte:
    ldy #8
    lda seed
:   asl a
    rol seed + 1
    bcc :+
    eor #$39
:   dey
    bne :--
    sta seed
    rts

; A = a colour 1-6, each equally likely: bytes 252-255 are drawn again so that 252 = 6 * 42
; values split evenly.
rand_colour:
    jsr rand_byte
    cmp #252
    bcs rand_colour
:   cmp #6
    bcc :+
    sbc #6                  ; carry is set here
    bcs :-
:   clc
    adc #1
    rts
