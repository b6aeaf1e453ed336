; The playfield: the falling column's cells, matches in four directions, and collapse.
;
; Cells are addressed by their playfield index 8 * (row + 2) + column + 1. The zero border
; bytes at both ends of every row and the zero row after row 12 stop every scan, so no
; bounds checks are needed across rows or columns.

.include "defs.inc"

.segment "CODE"

; Y = playfield index of the falling column's bottom jewel.
column_index:
    lda col_y
    clc
    adc #2
    asl a
    asl a
    asl a
    sec                     ; + 1 for the border byte
    adc col_x
    tay
    rts

; Writes the current colours into the playfield at the column's place.
draw_column:
    jsr column_index
    lda cur_col + 2
    sta playfield, y
    lda cur_col + 1
    sta playfield - ROW_BYTES, y
    lda cur_col
    sta playfield - 2 * ROW_BYTES, y
    rts

erase_column:
    jsr column_index
    lda #0
    sta playfield, y
    sta playfield - ROW_BYTES, y
    sta playfield - 2 * ROW_BYTES, y
    rts

; Carry set when the column can drop a row.
can_fall:
    lda col_y
    cmp #12
    bcs @no
    jsr column_index
    lda playfield + ROW_BYTES, y
    bne @no
    sec
    rts
@no:
    clc
    rts

; Marks every jewel in a line of three or more of one colour, across, down or on either
; diagonal, in the visible rows; removed = how many, and Z set when none.
find_matches:
    lda #0
    ldx #PF_END - 1
:   sta marks, x
    dex
    bpl :-
    ldy #FIRST_VISIBLE
@cell:
    lda playfield, y
    beq @next
    cmp #WILD
    bcs @next
    sta match_colour
    sty base_index
    ldx #3
@direction:
    ldy base_index
    tya
    clc
    adc directions, x
    tay
    lda playfield, y
    cmp match_colour
    bne @other
    tya
    clc
    adc directions, x
    tay
    lda playfield, y
    cmp match_colour
    bne @other
    lda #1
    sta marks, y
    tya
    sec
    sbc directions, x
    tay
    lda #1
    sta marks, y
    ldy base_index
    sta marks, y
@other:
    dex
    bpl @direction
    ldy base_index
@next:
    iny
    cpy #PF_END
    bne @cell
    ; Count.
    lda #0
    sta removed
    ldy #FIRST_VISIBLE
:   lda marks, y
    beq :+
    inc removed
:   iny
    cpy #PF_END
    bne :--
    lda removed
    rts

; Right, down-left, down, down-right.
directions:
    .byte 1, ROW_BYTES - 1, ROW_BYTES, ROW_BYTES + 1

; Removes the marked cells, then lets every column settle to the floor.
collapse:
    ldy #PF_END - 1
:   lda marks, y
    beq :+
    lda #0
    sta playfield, y
    sta marks, y
:   dey
    bpl :--
    lda #1
    sta tmp0                ; column
@column:
    lda tmp0
    clc
    adc #ROW12_BORDER
    tay                     ; reads upwards from row 12
    tax                     ; writes upwards from row 12
@read:
    lda playfield, y
    beq :+
    sta playfield, x
    txa
    sec
    sbc #ROW_BYTES
    tax
:   cpy #ROW_BYTES
    bcc @fill
    tya
    sbc #ROW_BYTES          ; carry is set
    tay
    jmp @read
@fill:
    cpx #PF_END             ; the write index wrapped: the column is full
    bcs @next_column
    lda #0
    sta playfield, x
    txa
    sec
    sbc #ROW_BYTES
    tax
    bcs @fill
@next_column:
    inc tmp0
    lda tmp0
    cmp #7
    bne @column
    rts
