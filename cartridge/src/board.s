; The playfield: the falling column's cells, the search for lines, the wild column's
; marks, the clear animation's cells and the collapse.
;
; Cells are addressed by their playfield index 8 * (row + 2) + column + 1. The zero border
; bytes at both ends of every row, the zero bytes after row 12 ($03F8-$03FF, then the
; unmarked first byte of `marks`) and row -2's zero border before it stop every scan, so
; no bounds checks are needed.

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

; The lines: every run of three or more equal jewels (1-6) across, down or on either
; diagonal whose centre lies in rows -1..12 is marked, each cell with its own colour. After
; a wild column's landing the marks are its own instead (mark_wild). removed = the number of
; marked cells; clearing ($66) = the colour of the marked cell with the highest index, 0 when
; nothing matched.
match_check:
    lda #0
    ldx #PF_SIZE - 1
:   sta marks, x
    dex
    bpl :-
    lda wild_mark
    beq @lines
    lda #0
    sta wild_mark
    jsr mark_wild
    jmp @count
@lines:
    ldy #ROW_M1 + 1
@cell:
    LOAD_CELL_OR_SKIP @next
    beq @next
    cmp #WILD
    bcs @next
    sta tmp0                ; colour
    sty tmp1                ; centre
    ldx #3
@direction:
    lda tmp1
    sec
    sbc directions, x
    tay
    lda playfield, y
    cmp tmp0
    bne @other
    lda tmp1
    clc
    adc directions, x
    tay
    lda playfield, y
    cmp tmp0
    bne @other
    lda tmp0
    sta marks, y
    ldy tmp1
    sta marks, y
    lda tmp1
    sec
    sbc directions, x
    tay
    lda tmp0
    sta marks, y
@other:
    dex
    bpl @direction
    ldy tmp1
@next:
    iny
    cpy #PF_SIZE
    bne @cell
@count:
    lda #0
    sta removed
    sta clearing
    ldy #PF_SIZE - 1
@tally:
    lda marks, y
    beq :+
    inc removed
    ldx clearing
    bne :+
    sta clearing
:   dey
    bpl @tally
    rts

; Across, down-left, down, down-right.
directions:
    .byte 1, ROW_BYTES - 1, ROW_BYTES, ROW_BYTES + 1

; A wild column has landed: on the floor its three X's go; on a jewel, every cell of that
; jewel's colour and every X go, all blinking in that colour.
mark_wild:
    jsr column_index
    lda col_y
    cmp #12
    bne @on_jewel
    lda #WILD
    sta marks, y
    sta marks - ROW_BYTES, y
    sta marks - 2 * ROW_BYTES, y
    rts
@on_jewel:
    lda playfield + ROW_BYTES, y
    sta tmp0
    ldy #0
@cell:
    lda playfield, y
    beq @next
    cmp tmp0
    beq @mark
    cmp #WILD
    bne @next
@mark:
    lda tmp0
    sta marks, y
@next:
    iny
    cpy #PF_SIZE
    bne @cell
    rts

; The marked cells become empty.
erase_marked:
    ldy #PF_SIZE - 1
:   lda marks, y
    beq :+
    lda #0
    sta playfield, y
:   dey
    bpl :--
    rts

; The marked cells as the clear timer says: at 17, 15, 13 and 11 empty, at 16, 14 and 12
; their colour, from 10 down to 1 the colours 1, 2, ... 6, 1, ... 4, all alike.
blink_marks:
    lda anim
    cmp #11
    bcs @early
    lda #10
    sec
    sbc anim
    cmp #6
    bcc :+
    sbc #6                  ; carry is set
:   clc
    adc #1
    bne @alike
@early:
    and #1
    beq @own
    lda #0
@alike:
    sta tmp0
    ldy #PF_SIZE - 1
:   lda marks, y
    beq :+
    lda tmp0
    sta playfield, y
:   dey
    bpl :--
    rts
@own:
    ldy #PF_SIZE - 1
:   lda marks, y
    beq :+
    sta playfield, y
:   dey
    bpl :--
    rts

; The collapse: the marked cells go, every column's cells in rows -1..12 settle to the
; floor in order, and row -2 is emptied.
collapse:
    jsr erase_marked
    ldx #1
@column:
    stx tmp0                ; index of the column in row -2
    txa
    clc
    adc #8 * 14
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
:   tya
    sec
    sbc #ROW_BYTES
    tay
    cpy #ROW_M1
    bcs @read
@fill:
    cpx #ROW_M1
    bcc @top
    lda #0
    sta playfield, x
    txa
    sec
    sbc #ROW_BYTES
    tax
    jmp @fill
@top:
    ldx tmp0
    lda #0
    sta playfield, x
    inx
    cpx #7
    bne @column
    rts

; The whole playfield, border bytes included, becomes empty.
clear_playfield:
    lda #0
    ldx #PF_SIZE - 1
:   sta playfield, x
    dex
    bpl :-
    rts

; A = non-zero (Z clear) when a jewel is in row -1.
row_m1_taken:
    lda #0
    ldx #6
:   ora playfield + ROW_M1, x
    dex
    bne :-
    cmp #0
    rts

erase_row_m2:
    lda #0
    ldx #6
:   sta playfield, x
    dex
    bne :-
    rts
