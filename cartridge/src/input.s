; Controller 1.

.include "defs.inc"

.segment "CODE"

; pad: buttons held this frame (A in bit 7 ... Right in bit 0); pad_new: pressed this frame.
read_pad:
    lda pad
    sta pad_prev
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
    lda pad_prev
    eor #$FF
    and pad
    sta pad_new
    rts
