from indexer.analysis import spans, terms


def test_french_folds_accents_before_stemming():
    assert terms("fr", "ratée") == terms("fr", "ratee") == terms("fr", "RATÉE")
    assert terms("fr", "pizzas ratées") == terms("fr", "pizza ratée")


def test_french_elisions_and_stop_words_are_dropped():
    assert terms("fr", "l’ouverture du four") == terms("fr", "ouverture four")


def test_german_inflections_share_a_stem():
    assert terms("de", "Zutaten") == terms("de", "Zutat")
    assert terms("de", "Spielern") == terms("de", "Spieler")
    assert terms("de", "Bestellungen") == terms("de", "Bestellung")


def test_english_stems_and_stop_words():
    assert terms("en", "the ingredients cards") == terms("en", "ingredient card")


def test_traditional_and_simplified_chinese_give_the_same_terms():
    assert terms("zh", "訂單") == terms("zh", "订单") == ["订单"]
    assert terms("zh", "超級豪華什錦披薩") == terms("zh", "超级豪华什锦披萨")


def test_chinese_index_terms_include_words_inside_long_words():
    assert "原料" in terms("zh", "原料牌堆", mode="index")


def test_chinese_spans_point_into_the_original_traditional_text():
    text = "把原料卡與媽媽咪呀卡一同充分洗牌"
    found = [text[a:b] for a, b in spans("zh", text, {"原料", "洗牌"})]
    assert found == ["原料", "洗牌"]


def test_latin_words_inside_chinese_are_lower_cased():
    assert "bombastica" in terms("zh", "超級豪華什錦披薩（Pizza Bombastica）")


def test_a_quotation_ending_with_its_own_mark_does_not_end_the_sentence():
    from indexer.analysis import sentences

    french = "Le reste est mélangé avec la carte « Mamma Mia ! » et posé. Puis on joue."
    chinese = "把原料卡與「媽媽咪呀！」卡一同洗牌。然後開始。"
    assert [french[a:b] for a, b in sentences(french)] == [
        "Le reste est mélangé avec la carte « Mamma Mia ! » et posé.", "Puis on joue."]
    assert [chinese[a:b] for a, b in sentences(chinese)] == ["把原料卡與「媽媽咪呀！」卡一同洗牌。", "然後開始。"]
