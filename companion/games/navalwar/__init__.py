"""ネイバルウォー Naval War: card data, rules, views, the screen."""
